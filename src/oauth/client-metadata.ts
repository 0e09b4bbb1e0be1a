import { invisibleCharacter, notTextCharacter, replacementCharacter } from "../briefs/visible-text.ts";
import { clientMetadataLimits } from "../tokens/metadata.ts";
import { Refusal } from "../http/refusal.ts";
import { applicationTypes, inferredApplicationType, redirectUriProblem, type ApplicationType } from "./redirect-uri.ts";

/**
 * Client metadata (RFC 7591 §2) as this server accepts it, from a registration request or a client ID metadata
 * document. Fields we do not use are dropped rather than stored, so a registration cannot be used to park data.
 */
export interface ClientMetadata {
  client_name?: string;
  /** Always set by validation; absent from registrations made before it was stored. */
  application_type?: ApplicationType;
  redirect_uris: string[];
  grant_types: ("authorization_code" | "client_credentials")[];
  response_types: "code"[] | [];
  token_endpoint_auth_method: AuthMethod;
}

/** private_key_jwt is accepted only from a client ID metadata document (src/oauth/cimd.ts), never at registration. */
export type AuthMethod = "client_secret_post" | "none" | "private_key_jwt";

const grantTypes = ["authorization_code", "client_credentials"] as const;
const registrationAuthMethods: readonly AuthMethod[] = ["client_secret_post", "none"];
// C0/C1 controls and the bidirectional overrides that could make a name read as something else on the consent screen.
const unsafeText = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const invalid = (detail: string) => new Refusal("invalid_client_metadata", { detail });
const invalidRedirectUri = (detail: string) => new Refusal("invalid_redirect_uri", { detail });

/**
 * Asked for by clients that can do without (RFC 7591 §3.2.1 lets the server substitute): refresh_token is dropped,
 * since no refresh tokens are issued; client_secret_basic becomes client_secret_post (the same secret, in the body).
 * The answer then names only what the server's metadata advertises.
 */
const droppedGrants: readonly unknown[] = ["refresh_token"];
const substitutedMethods: Readonly<Record<string, string>> = { client_secret_basic: "client_secret_post" };

/** Validates and normalises metadata; `defaultAuthMethod` is what an omitted token_endpoint_auth_method becomes. */
export function validateClientMetadata(
  input: Record<string, unknown>,
  defaultAuthMethod: AuthMethod,
  authMethods: readonly AuthMethod[] = registrationAuthMethods,
): ClientMetadata {
  const name = input.client_name;
  if (name !== undefined) {
    if (typeof name !== "string" || name.trim() === "") throw invalid("client_name must be a non-empty string.");
    if (name.length > clientMetadataLimits.clientName)
      throw invalid(`client_name must be at most ${clientMetadataLimits.clientName} characters.`);
    if (unsafeText.test(name)) throw invalid("client_name must not contain control or bidirectional formatting characters.");
    // The consent screen shows it to a person: what they read must be all there is (no hidden letters, no lost bytes).
    if (name.includes(replacementCharacter))
      throw invalid("client_name must not contain U+FFFD, the replacement character: bytes that were not UTF-8 were lost.");
    const unseen = notTextCharacter(name) ?? invisibleCharacter(name);
    if (unseen !== undefined) throw invalid(`client_name must contain only characters a person can see (found ${unseen}).`);
  }

  const requestedGrants = input.grant_types ?? ["authorization_code"];
  const grants = Array.isArray(requestedGrants) ? requestedGrants.filter((g) => !droppedGrants.includes(g)) : requestedGrants;
  if (!Array.isArray(grants) || grants.length === 0 || !grants.every((g) => (grantTypes as readonly unknown[]).includes(g))) {
    throw invalid(`grant_types must be a non-empty array of ${grantTypes.join(", ")}.`);
  }
  const grant_types = [...new Set(grants as ClientMetadata["grant_types"])];

  const askedMethod = input.token_endpoint_auth_method ?? defaultAuthMethod;
  const method = (typeof askedMethod === "string" && substitutedMethods[askedMethod]) || askedMethod;
  if (!(authMethods as readonly unknown[]).includes(method))
    throw invalid(`token_endpoint_auth_method must be one of ${authMethods.join(", ")}.`);
  const token_endpoint_auth_method = method as ClientMetadata["token_endpoint_auth_method"];

  const uris = input.redirect_uris ?? [];
  if (!Array.isArray(uris)) throw invalidRedirectUri("redirect_uris must be an array of URIs.");
  if (uris.length > clientMetadataLimits.redirectUris) {
    throw invalidRedirectUri(`At most ${clientMetadataLimits.redirectUris} redirect URIs can be registered.`);
  }
  const type = input.application_type === undefined ? inferredApplicationType(uris) : input.application_type;
  if (!(applicationTypes as readonly unknown[]).includes(type))
    throw invalid(`application_type must be one of ${applicationTypes.join(", ")}.`);
  const application_type = type as ApplicationType;
  for (const uri of uris) {
    const problem = redirectUriProblem(uri, application_type);
    if (problem) throw invalidRedirectUri(`${JSON.stringify(String(uri).slice(0, 80))}: ${problem}.`);
  }
  const redirect_uris = [...new Set(uris as string[])];

  if (grant_types.includes("authorization_code") && redirect_uris.length === 0) {
    throw invalidRedirectUri("The authorization_code grant needs at least one redirect URI.");
  }
  if (token_endpoint_auth_method === "none" && grant_types.includes("client_credentials")) {
    throw invalid("client_credentials needs a client secret: use token_endpoint_auth_method client_secret_post.");
  }
  const response_types = grant_types.includes("authorization_code") ? (["code"] as const) : ([] as const);
  if (input.response_types !== undefined) {
    const asked = input.response_types;
    if (!Array.isArray(asked) || asked.some((t) => !(response_types as readonly unknown[]).includes(t))) {
      throw invalid(`response_types must match the grant types: ${JSON.stringify(response_types)}.`);
    }
  }

  return {
    ...(name !== undefined ? { client_name: (name as string).trim() } : {}),
    redirect_uris,
    grant_types,
    response_types: [...response_types],
    token_endpoint_auth_method,
    application_type,
  };
}
