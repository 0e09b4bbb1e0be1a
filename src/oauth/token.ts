import { issueAccessToken } from "./access-token.ts";
import { readForm } from "./body.ts";
import { absolute, oauthPaths } from "../paths.ts";
import { authenticateClientAssertion, ClientAssertionRefused } from "./client-assertion.ts";
import { clientKeySet } from "./client-keys.ts";
import { looksLikeMetadataDocumentUrl, type CountQuota } from "./cimd.ts";
import { authenticateClient, basicChallenge, registeredClientsKeptAMinute, type ClientRecord } from "./clients.ts";
import { redeemCode } from "./codes.ts";
import { Refusal } from "../http/refusal.ts";
import { jsonResponse } from "./json.ts";
import { grantedAudience, grantedScope } from "./grant.ts";
import { clientGrantId } from "./grants.ts";
import { verifierMatches } from "./pkce.ts";
import { findClient, type OAuthServerOptions } from "./server-options.ts";

export const maxTokenBodyBytes = 4 * 1024;

type Form = Awaited<ReturnType<typeof readForm>>;

/** What a token request counts: a document or key set fetch against the IP, and the request itself once identified. */
export interface TokenQuota {
  count: CountQuota;
  /**
   * Counts the request against `oauth-token` for its grant, and its address's ceiling for the grant's address (where the
   * person approved it; the caller's IP without one); one that never calls it is counted for its IP.
   */
  charge(grant: string, address?: string): Promise<void>;
}

/**
 * POST /oauth/token (RFC 6749 §3.2): client_credentials (§4.4) and authorization_code with PKCE (§4.1.3, RFC 7636), for
 * registered clients (client_secret_post, none) and metadata document clients (none, private_key_jwt).
 */
export function createTokenHandler(options: OAuthServerOptions) {
  const now = options.now ?? Date.now;
  const issuer = options.baseUrl;
  const tokenEndpoint = absolute(options.baseUrl, oauthPaths.token);
  const registeredClient = registeredClientsKeptAMinute(options.redis, { now });

  async function clientCredentials({ values, repeated }: Form, { count, charge }: TokenQuota) {
    const client = await authenticated(values, count);
    // A public client passes authenticated() with its bare client_id, which anyone knows: it is never allowed this grant,
    // and its request, like any that proves nothing, stays the address's.
    if (!client.grant_types.includes("client_credentials")) {
      throw new Refusal("unauthorized_client", { detail: "This client is not registered for the client_credentials grant." });
    }
    // The client proved itself (its secret or its key): the request is its grant's, whatever follows.
    const grantId = clientGrantId(client.client_id);
    await charge(grantId);
    const grant = {
      clientId: client.client_id,
      grantId,
      scope: grantedScope(values.scope),
      audience: grantedAudience(options.baseUrl, repeated.resource),
    };
    return issueAccessToken(options.keys, issuer, grant, now());
  }

  async function authorizationCode({ values, repeated }: Form, { count, charge }: TokenQuota) {
    for (const name of ["code", "redirect_uri", "code_verifier"] as const) {
      if (!values[name]) throw new Refusal("invalid_oauth_request", { detail: `${name} is required for the authorization_code grant.` });
    }
    const client = await authenticated(values, count);
    const code = await redeemCode(options.redis, values.code!);
    // Every mismatch is the same invalid_grant (RFC 6749 §5.2); the code is spent either way.
    const refuse = () =>
      new Refusal("invalid_grant", { detail: "The code is invalid, expired, already used, or was issued for another request." });
    // A code that was issued is its approval's grant's request to count; one that was not identifies nothing.
    if (code?.grant_id) await charge(code.grant_id, code.consent_address);
    if (!code?.grant_id || code.client_id !== client.client_id || code.redirect_uri !== values.redirect_uri) throw refuse();
    if (!verifierMatches(values.code_verifier!, code.code_challenge)) throw refuse();
    if (repeated.resource?.length && grantedAudience(options.baseUrl, repeated.resource) !== code.resource) {
      throw new Refusal("invalid_target", { detail: "resource must be the one the authorization request named." });
    }
    const grant = {
      clientId: client.client_id,
      grantId: code.grant_id,
      scope: code.scope,
      audience: code.resource,
      ...(code.consent_address ? { consentAddress: code.consent_address } : {}),
    };
    return issueAccessToken(options.keys, issuer, grant, now());
  }

  /**
   * The client and its proof: a client_assertion (RFC 7521 §4.2: client_id then optional, and equal to its sub when
   * sent), a secret for a registration, or nothing for a public client. A metadata document client is looked up
   * (its cached document) so that one declaring private_key_jwt can never pass without its assertion.
   */
  async function authenticated(values: Record<string, string>, count: CountQuota): Promise<ClientRecord> {
    const clientId = values.client_id;
    if (values.client_assertion !== undefined || values.client_assertion_type !== undefined) {
      if (values.client_secret)
        throw new Refusal("invalid_oauth_request", { detail: "Send either client_secret or client_assertion, not both." });
      return assertedClient(values, count);
    }
    if (!clientId)
      throw new Refusal("invalid_client", { detail: "Send client_id (and client_secret for a confidential client) in the body." });
    if (looksLikeMetadataDocumentUrl(clientId)) {
      if (values.client_secret) throw new Refusal("invalid_client", { detail: "A metadata document client has no client secret." });
      const client = await findClient(options, clientId, count);
      if (client?.token_endpoint_auth_method === "private_key_jwt") return assertedClient(values, count);
      return authenticateClient(client, undefined);
    }
    return authenticateClient(await registeredClient(clientId), values.client_secret);
  }

  async function assertedClient(values: Record<string, string>, count: CountQuota): Promise<ClientRecord> {
    const allowLoopback = options.allowLoopbackMetadataDocuments ?? false;
    try {
      return await authenticateClientAssertion(values, {
        issuer,
        tokenEndpoint,
        redis: options.redis,
        now,
        // Only a metadata document client can hold a key; a registration's client_id names none.
        findClient: async (clientId) => (looksLikeMetadataDocumentUrl(clientId) ? findClient(options, clientId, count) : undefined),
        keySet: (client) => clientKeySet(client, { redis: options.redis, count, allowLoopback }),
      });
    } catch (error) {
      if (!(error instanceof ClientAssertionRefused)) throw error;
      if (error.reason) (options.log ?? console.error)(`client assertion refused: ${error.reason}`);
      throw new Refusal("invalid_client", { detail: error.description, headers: basicChallenge });
    }
  }

  return async (request: Request, quota: TokenQuota): Promise<Response> => {
    if (request.headers.has("authorization")) {
      throw new Refusal("invalid_client", {
        detail: "HTTP Basic client authentication is not offered: send client_id and client_secret in the body.",
        headers: basicChallenge,
      });
    }
    const form = await readForm(request, maxTokenBodyBytes, ["resource"]);
    switch (form.values.grant_type) {
      case "client_credentials":
        return jsonResponse(await clientCredentials(form, quota));
      case "authorization_code":
        return jsonResponse(await authorizationCode(form, quota));
      case undefined:
        throw new Refusal("invalid_oauth_request", { detail: "grant_type is required." });
      default:
        throw new Refusal("unsupported_grant_type", { detail: "The grant types are authorization_code and client_credentials." });
    }
  };
}
