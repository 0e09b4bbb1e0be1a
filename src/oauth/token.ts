import { issueAccessToken } from "./access-token.ts";
import { readForm } from "./body.ts";
import { looksLikeMetadataDocumentUrl } from "./cimd.ts";
import { authenticateClient, registeredClientsKeptAMinute, type ClientRecord } from "./clients.ts";
import { redeemCode } from "./codes.ts";
import { answering, jsonResponse, OAuthError } from "./errors.ts";
import { grantedAudience, grantedScope } from "./grant.ts";
import { verifierMatches } from "./pkce.ts";
import type { OAuthServerOptions } from "./server-options.ts";

export const maxTokenBodyBytes = 4 * 1024;

type Form = Awaited<ReturnType<typeof readForm>>;

/** POST /oauth/token (RFC 6749 §3.2): client_credentials (§4.4) and authorization_code with PKCE (§4.1.3, RFC 7636). */
export function createTokenHandler(options: OAuthServerOptions) {
  const now = options.now ?? Date.now;
  const issuer = options.baseUrl;
  const registeredClient = registeredClientsKeptAMinute(options.redis, { now });

  async function clientCredentials({ values, repeated }: Form) {
    const client = await authenticated(values);
    if (!client.grant_types.includes("client_credentials")) {
      throw new OAuthError("unauthorized_client", "This client is not registered for the client_credentials grant.");
    }
    const grant = {
      clientId: client.client_id,
      scope: grantedScope(values.scope),
      audience: grantedAudience(options.baseUrl, repeated.resource),
    };
    return issueAccessToken(options.keys, issuer, grant, now());
  }

  async function authorizationCode({ values, repeated }: Form) {
    for (const name of ["code", "redirect_uri", "code_verifier"] as const) {
      if (!values[name]) throw new OAuthError("invalid_request", `${name} is required for the authorization_code grant.`);
    }
    const client = await authenticated(values);
    const code = await redeemCode(options.redis, values.code!);
    // Every mismatch is the same invalid_grant (RFC 6749 §5.2); the code is spent either way.
    const refuse = () => new OAuthError("invalid_grant", "The code is invalid, expired, already used, or was issued for another request.");
    if (!code || code.client_id !== client.client_id || code.redirect_uri !== values.redirect_uri) throw refuse();
    if (!verifierMatches(values.code_verifier!, code.code_challenge)) throw refuse();
    if (repeated.resource?.length && grantedAudience(options.baseUrl, repeated.resource) !== code.resource) {
      throw new OAuthError("invalid_target", "resource must be the one the authorization request named.");
    }
    return issueAccessToken(options.keys, issuer, { clientId: client.client_id, scope: code.scope, audience: code.resource }, now());
  }

  async function authenticated(values: Record<string, string>): Promise<ClientRecord> {
    const clientId = values.client_id;
    if (!clientId) throw new OAuthError("invalid_client", "Send client_id (and client_secret for a confidential client) in the body.", 401);
    if (looksLikeMetadataDocumentUrl(clientId)) {
      // A metadata document client is public; its code is bound to its client_id and PKCE, no fetch is needed here.
      if (values.client_secret) throw new OAuthError("invalid_client", "A metadata document client has no client secret.", 401);
      return {
        client_id: clientId,
        client_id_issued_at: 0,
        redirect_uris: [],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    }
    return authenticateClient(await registeredClient(clientId), values.client_secret);
  }

  return (request: Request): Promise<Response> =>
    answering(async () => {
      if (request.headers.has("authorization")) {
        throw new OAuthError(
          "invalid_client",
          "HTTP Basic client authentication is not offered: send client_id and client_secret in the body.",
          401,
          {
            "WWW-Authenticate": 'Basic realm="oauth"',
          },
        );
      }
      const form = await readForm(request, maxTokenBodyBytes, ["resource"]);
      switch (form.values.grant_type) {
        case "client_credentials":
          return jsonResponse(await clientCredentials(form));
        case "authorization_code":
          return jsonResponse(await authorizationCode(form));
        case undefined:
          throw new OAuthError("invalid_request", "grant_type is required.");
        default:
          throw new OAuthError("unsupported_grant_type", "The grant types are authorization_code and client_credentials.");
      }
    });
}
