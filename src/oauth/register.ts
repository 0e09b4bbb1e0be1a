import { quotaHeaders } from "../limits/headers.ts";
import { readJsonObject } from "./body.ts";
import { validateClientMetadata } from "./client-metadata.ts";
import { registerClient, registrationResponse } from "./clients.ts";
import { answering, jsonResponse } from "./errors.ts";
import type { OAuthServerOptions } from "./server-options.ts";

export const maxRegistrationBodyBytes = 8 * 1024;

/**
 * POST /oauth/register: open dynamic client registration (RFC 7591 §3), rate-limited per client IP by the
 * `oauth-register` policy so it cannot flood storage or logs. A client that omits token_endpoint_auth_method gets
 * client_secret_post (RFC 7591 §2 default client_secret_basic is not offered; §3.2.1 lets the server substitute).
 */
export function createRegistrationHandler(options: OAuthServerOptions) {
  const now = options.now ?? Date.now;
  return async (request: Request, { ip }: { ip: string }): Promise<Response> => {
    const quota = await options.limiter.consume("oauth-register", ip);
    const limits = quotaHeaders(quota);
    if (!quota.allowed) {
      return jsonResponse(
        { error: "rate_limited", error_description: `Too many registrations from this address; retry in ${limits["Retry-After"]} s.` },
        429,
        limits,
      );
    }
    const response = await answering(async () => {
      const body = await readJsonObject(request, maxRegistrationBodyBytes, "invalid_client_metadata");
      const metadata = validateClientMetadata(body, "client_secret_post");
      const { record, secret } = await registerClient(options.redis, metadata, now());
      return jsonResponse(registrationResponse(record, secret), 201);
    });
    for (const [name, value] of Object.entries(limits)) response.headers.set(name, value);
    return response;
  };
}
