import { createAuthorizationHandler } from "./authorize.ts";
import { jsonResponse } from "./errors.ts";
import { oauthPaths } from "./metadata.ts";
import { createRegistrationHandler } from "./register.ts";
import type { OAuthServerOptions } from "./server-options.ts";
import { createTokenHandler } from "./token.ts";
import { requestedPath } from "../http/emulator-retry.ts";

export interface RequestContext {
  /** The client's IP address, for the registration quota. */
  ip: string;
}

/** Browser-based clients (an MCP inspector, a web app) call registration and token endpoints cross-origin. */
const cors = { "Access-Control-Allow-Origin": "*" };
const preflight = () =>
  new Response(null, {
    status: 204,
    headers: {
      ...cors,
      "Access-Control-Allow-Methods": "POST",
      "Access-Control-Allow-Headers": "Content-Type",
      "Access-Control-Max-Age": "86400",
    },
  });

const withHeaders = (response: Response, headers: Record<string, string>) => {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
};

/**
 * netlify dev retries a 403 or 404 from a function at `/path.html`, `/path/index.html` and the like (it mimics the
 * CDN's static fallbacks); those variants name the same endpoint, so a refusal reaches the client unchanged locally
 * as it does in production. Refusals change no state, so answering them again is harmless.
 */
const endpointPath = requestedPath;

const methodNotAllowed = (allow: string) =>
  jsonResponse({ error: "invalid_request", error_description: `Use ${allow}.` }, 405, { Allow: allow });

/** The authorization server's endpoints by path and method. */
export function createOAuthHandler(options: OAuthServerOptions) {
  const register = createRegistrationHandler(options);
  const token = createTokenHandler(options);
  const authorize = createAuthorizationHandler(options);

  return async (request: Request, context: RequestContext): Promise<Response> => {
    const pathname = endpointPath(new URL(request.url).pathname);
    const method = request.method;
    switch (pathname) {
      case oauthPaths.register:
        if (method === "OPTIONS") return preflight();
        return method === "POST" ? withHeaders(await register(request, context), cors) : methodNotAllowed("POST");
      case oauthPaths.token:
        if (method === "OPTIONS") return preflight();
        return method === "POST" ? withHeaders(await token(request), cors) : methodNotAllowed("POST");
      case oauthPaths.authorize:
        return method === "GET" || method === "HEAD" || method === "POST" ? authorize(request) : methodNotAllowed("GET, POST");
      default:
        return jsonResponse({ error: "invalid_request", error_description: "No such OAuth endpoint." }, 404);
    }
  };
}
