import { policyField, quotaHeaders } from "../limits/headers.ts";
import { QuotaStoreUnavailable, type Limiter, type QuotaResult } from "../limits/limiter.ts";
import { policies } from "../limits/policies.ts";

import { deprecationHeaders, findDeprecation, type Deprecation } from "./deprecations.ts";
import { matchesIfNoneMatch, strongEtag } from "./etag.ts";
import { problemResponse } from "./problem.ts";
import type { ProblemCode } from "./problems.ts";
import { matchRoute, type ApiRoute } from "./routes.ts";
import { requestedPath } from "../http/emulator-retry.ts";
import { apiBase, pagePaths, resourcePaths, openApiPath } from "../paths.ts";

export interface GatewayOptions {
  baseUrl: string;
  limiter: Limiter;
  deprecations: readonly Deprecation[];
  log?: (message: string) => void;
  /**
   * Under netlify dev only: the emulator answers a 404 from an edge function by calling it again for
   * `<path>.html`, `<path>.htm`, `<path>/index.html` and `<path>/index.htm`. Those calls are recognised, report
   * the quota without counting, and answer for the path the client asked for.
   */
  emulatorRetries?: boolean;
}

export interface GatewayContext {
  /** The client's address as the platform saw the connection; never a request header. */
  ip: string;
  /** Passes the request on to the platform: the prebuilt file of a read, the function of a write. */
  next(request: Request): Promise<Response>;
}

const exposed =
  "RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag, Deprecation, Sunset, Link";
const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": exposed };
export const readCacheControl = "public, max-age=60, stale-while-revalidate=600";

/**
 * Everything under /api passes here first (an edge function in production and locally): the quota, the route and
 * method checks with RFC 9457 problems, conditional requests, CORS and deprecation headers. The resources stay
 * prebuilt files; the gateway only counts, labels and checks requests in front of them.
 */
export function createApiGateway({ baseUrl, limiter, deprecations, log = console.error, emulatorRetries = false }: GatewayOptions) {
  let warnedOutage = false;

  const problem = (code: ProblemCode, path: string, headers: Record<string, string>, detail?: string, resolution?: string) =>
    problemResponse(baseUrl, code, { instance: path, detail, resolution, headers: { ...cors, ...headers } });

  return async function gateway(request: Request, context: GatewayContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    const path = emulatorRetries ? requestedPath(pathname) : pathname;
    const method = request.method.toUpperCase();

    let quota: Record<string, string> = {};
    try {
      // An emulator retry follows a request that was counted and allowed: report, never refuse.
      const retry = path !== pathname;
      const result = retry
        ? { ...(await limiter.peek("public-api", context.ip)), allowed: true }
        : await limiter.consume("public-api", context.ip);
      quota = quotaHeaders(result);
      if (!result.allowed) return problem("rate_limited", path, quota, rateLimitedDetail(result), rateLimitedResolution(result));
    } catch (error) {
      quota = { "RateLimit-Policy": policyField("public-api") };
      if (!isOutage(error)) {
        // A store that answers but refuses (a wrong token, a broken URL) is a configuration error: loud, and no service.
        log(`quota store error, /api refused: ${String(error)}`);
        return problem("service_unavailable", path, { ...quota, "Retry-After": "30" });
      }
      // Public facts stay readable while the quota store is unreachable; the response then carries the policy only.
      if (!warnedOutage) log(`quota store unreachable, /api served without quota enforcement: ${String(error)}`);
      warnedOutage = true;
    }

    const route = matchRoute(path);
    if (!route) return problem("not_found", path, quota, `${path} is not a resource of this API.`, notFoundResolution(path));
    const allow = route.methods.join(", ");
    if (!route.methods.includes(method)) {
      return problem(
        "method_not_allowed",
        path,
        { ...quota, Allow: allow },
        `${method} is not supported on ${path}.`,
        `${path} supports ${allow}.${route.kind === "read" ? " The only write is POST /api/v1/briefs." : ""}`,
      );
    }
    if (method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          ...quota,
          Allow: allow,
          "Access-Control-Allow-Methods": allow,
          "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key, If-None-Match",
          "Access-Control-Max-Age": "86400",
        },
      });
    }

    const deprecation = findDeprecation(deprecations, method, route.path);
    const lifecycle = deprecation ? deprecationHeaders(deprecation, `${baseUrl}${pagePaths.developers}#versioning`) : {};

    if (route.kind === "function") {
      // An emulator retry of a refused write goes to the function again, at the path the client asked for.
      const response = await context.next(path === pathname ? request : new Request(new URL(path, request.url), request));
      return new Response(response.body, {
        status: response.status,
        headers: withGatewayHeaders(response.headers, { ...cors, ...lifecycle }, quota),
      });
    }
    return serveRead(request, route, path, context, { ...cors, ...quota, ...lifecycle }, problem);
  };
}

async function serveRead(
  request: Request,
  route: ApiRoute,
  path: string,
  context: GatewayContext,
  headers: Record<string, string>,
  problem: (code: ProblemCode, path: string, headers: Record<string, string>, detail?: string, resolution?: string) => Response,
): Promise<Response> {
  // Fetch the whole file unconditionally; validators are the gateway's own (a strong ETag over the bytes).
  const upstream = await context.next(new Request(request.url, { method: "GET", headers: { accept: "application/json" } }));
  if (upstream.status === 404) {
    await upstream.body?.cancel();
    return problem("not_found", path, headers, `${path} is not a resource of this API.`, notFoundResolution(path));
  }
  if (!upstream.ok) return upstream;
  const body = await upstream.arrayBuffer();
  const etag = await strongEtag(body);
  const out = new Headers({
    ...headers,
    "Content-Type": route.path === openApiPath ? "application/vnd.oai.openapi+json;version=3.1" : "application/json; charset=utf-8",
    "Cache-Control": readCacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  });
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: out });
  out.set("Content-Length", String(body.byteLength));
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: out });
}

/**
 * A function's response keeps its own quota report (a per-client policy, say) next to the gateway's: RateLimit and
 * RateLimit-Policy are lists, so both policies appear; the single-valued older fields and Retry-After stay the
 * function's when it set them, since they explain its answer.
 */
function withGatewayHeaders(upstream: Headers, extra: Record<string, string>, quota: Record<string, string>): Headers {
  const headers = new Headers(upstream);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  for (const [name, value] of Object.entries(quota)) {
    const own = upstream.get(name);
    if (own === null) headers.set(name, value);
    else if (name === "RateLimit" || name === "RateLimit-Policy") headers.set(name, `${value}, ${own}`);
  }
  return headers;
}

function notFoundResolution(path: string): string | undefined {
  const studies = `${resourcePaths["case-studies"]}/`;
  if (path.startsWith(studies) && !path.slice(studies.length).includes("/")) {
    return `No case study has the id "${path.slice(studies.length)}"; ${resourcePaths["case-studies"]} lists every published id.`;
  }
  if (/^\/api\/v\d+/.test(path) && !path.startsWith(`${apiBase}/`) && path !== apiBase) {
    return `This API's only major version is v1; start at ${apiBase}, which lists every resource.`;
  }
  if (path.endsWith("/") || path.endsWith(".json")) {
    return `Resource paths have no trailing slash and no file extension; ${apiBase} lists every resource.`;
  }
  return undefined;
}

const rateLimitedDetail = (r: QuotaResult) =>
  `This IP address has used its ${policies[r.policy].quota} requests for the current ${policies[r.policy].windowSeconds}-second window.`;
const rateLimitedResolution = (r: QuotaResult) =>
  `Wait ${Math.max(1, r.resetSeconds)} seconds (the Retry-After header), then retry; pace requests with the RateLimit header.`;

/** Unreachable (a timeout, or fetch failing to connect), as opposed to reachable but refusing. */
const isOutage = (error: unknown) => error instanceof QuotaStoreUnavailable;
