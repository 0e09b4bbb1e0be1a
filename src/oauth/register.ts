import { readJsonObject } from "./body.ts";
import { validateClientMetadata } from "./client-metadata.ts";
import { registerClient, registrationResponse } from "./clients.ts";
import { jsonResponse } from "./json.ts";
import type { OAuthServerOptions } from "./server-options.ts";

export const maxRegistrationBodyBytes = 8 * 1024;

/**
 * POST /oauth/register: open dynamic client registration (RFC 7591 §3). Registrations never expire, so the router
 * counts each request against the per-IP `oauth-register` policy first: that limit is what bounds their growth. A
 * client that omits token_endpoint_auth_method gets client_secret_post (RFC 7591 §2 default client_secret_basic is
 * not offered; §3.2.1 lets the server substitute, as it does for client_secret_basic and a requested refresh_token).
 * `application_type` is answered back as given, or as inferred from the redirect URIs (client-metadata.ts).
 */
export function createRegistrationHandler(options: OAuthServerOptions) {
  const now = options.now ?? Date.now;
  return async (request: Request): Promise<Response> => {
    const body = await readJsonObject(request, maxRegistrationBodyBytes);
    const metadata = validateClientMetadata(body, "client_secret_post");
    const { record, secret } = await registerClient(options.redis, metadata, now());
    return jsonResponse(registrationResponse(record, secret), 201);
  };
}
