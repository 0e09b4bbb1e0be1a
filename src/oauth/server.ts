import type { QuotaResult } from "../limits/limiter.ts";
import type { PolicyName } from "../limits/policies.ts";
import { pageHeaders } from "../site/function-page.ts";
import { createAuthorizationHandler } from "./authorize.ts";
import { errorPage } from "./consent-page.ts";
import { jsonResponse } from "./errors.ts";

import { QuotaExceeded, rateLimitedDescription, rateLimitedError, RequestQuota } from "./quota.ts";
import { createRegistrationHandler } from "./register.ts";
import type { OAuthServerOptions } from "./server-options.ts";
import { createTokenHandler } from "./token.ts";
import { requestedPath } from "../http/emulator-retry.ts";
import { oauthPaths } from "../paths.ts";

export interface RequestContext {
  /** The client's IP address as the platform saw the connection: every OAuth quota is counted per address. */
  ip: string;
}

/** Browser-based clients (an MCP inspector, a web app) call registration and token endpoints cross-origin. */
const cors = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After",
};
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

const methodNotAllowed = (allow: string) =>
  jsonResponse({ error: "invalid_request", error_description: `Use ${allow}.` }, 405, { Allow: allow });

/** Past a quota: RFC 6749-style JSON at the registration and token endpoints. */
const rateLimitedJson = (result: QuotaResult) =>
  jsonResponse({ error: rateLimitedError, error_description: rateLimitedDescription(result) }, 429);

type Endpoint = (request: Request, quota: RequestQuota) => Promise<Response>;

/** The authorization server's endpoints by path and method, each counted per client IP before it runs. */
export function createOAuthHandler(options: OAuthServerOptions) {
  const register = createRegistrationHandler(options);
  const token = createTokenHandler(options);
  const authorize = createAuthorizationHandler(options);
  // At /oauth/authorize the client and its redirect URI are not trusted yet: a refusal is a page, never a redirect.
  const rateLimitedPage = (result: QuotaResult) =>
    new Response(errorPage(options.page, rateLimitedDescription(result)), { status: 429, headers: pageHeaders() });

  /**
   * Counts the request against `policy` (and whatever else the endpoint counts, such as a metadata document fetch),
   * answers 429 in the endpoint's format past any of them, and reports every counted quota on the response.
   */
  async function counted(
    policy: PolicyName,
    refuse: (result: QuotaResult) => Response,
    serve: Endpoint,
    request: Request,
    quota: RequestQuota,
  ) {
    let response: Response;
    try {
      await quota.count(policy);
      response = await serve(request, quota);
    } catch (error) {
      if (!(error instanceof QuotaExceeded)) throw error;
      response = refuse(error.result);
    }
    return withHeaders(response, quota.headers());
  }

  return async (request: Request, context: RequestContext): Promise<Response> => {
    const { pathname } = new URL(request.url);
    // netlify dev calls a function again at `/path.html`, `/path/index.htm` and the like after it answered 403 or 404
    // (it mimics the CDN's pretty URLs): the same endpoint, answered again for the path the client asked for (a
    // refusal changes no state), with the quota reported but not counted a second time.
    const path = options.emulatorRetries ? requestedPath(pathname) : pathname;
    const quota = new RequestQuota(options.limiter, context.ip, path !== pathname);
    const method = request.method;
    switch (path) {
      case oauthPaths.register:
        if (method === "OPTIONS") return preflight();
        if (method !== "POST") return methodNotAllowed("POST");
        return withHeaders(await counted("oauth-register", rateLimitedJson, register, request, quota), cors);
      case oauthPaths.token:
        if (method === "OPTIONS") return preflight();
        if (method !== "POST") return methodNotAllowed("POST");
        return withHeaders(await counted("oauth", rateLimitedJson, token, request, quota), cors);
      case oauthPaths.authorize:
        if (method !== "GET" && method !== "HEAD" && method !== "POST") return methodNotAllowed("GET, POST");
        return counted("oauth", rateLimitedPage, authorize, request, quota);
      default:
        return jsonResponse({ error: "invalid_request", error_description: "No such OAuth endpoint." }, 404);
    }
  };
}
