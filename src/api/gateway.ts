import type { Limiter } from "../limits/limiter.ts";
import { problemJson } from "../http/formats.ts";
import { publicCors, readCors } from "../http/cors.ts";
import type { DoorContext, Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { methodNotAllowed } from "../http/methods.ts";
import { quota } from "../http/quota.ts";
import { Refusal } from "../http/refusal.ts";
import { usageHeaders } from "../discovery/policy.ts";
import { apiBase, openApiPath, resourcePaths, guideUrl } from "../paths.ts";
import { deprecationHeaders, findDeprecation, type Deprecation } from "./deprecations.ts";
import { matchesIfNoneMatch, strongEtag } from "../http/etag.ts";
import { apiRoutes, matchRoute, type ApiRoute } from "./routes.ts";

export interface GatewayOptions {
  baseUrl: string;
  limiter: Limiter;
  deprecations: readonly Deprecation[];
  log?: (message: string) => void;
}

const routeOf = (c: DoorContext) => matchRoute(new URL(c.req.url).pathname);
const methodsOf = (c: DoorContext) => routeOf(c)?.methods ?? ["GET", "HEAD"];
/** The CORS policy of each kind of route: a read's, or a write's (a token, a JSON body, an Idempotency-Key). */
const readsCors = readCors(methodsOf);
const writesCors = publicCors(methodsOf, ["Authorization", "Content-Type", "Idempotency-Key"]);
/** The API's writes, as its route table has them: what a 405 on a read points to. */
const writePaths = apiRoutes
  .filter((r) => r.methods.includes("POST"))
  .map((r) => r.path.replace(":id", "{id}"))
  .join(", ");
export const readCacheControl = "public, max-age=60, stale-while-revalidate=600";

/**
 * Everything under /api passes here first (an edge function in production and locally): the quota, the route and
 * method checks with RFC 9457 problems, conditional requests, CORS and deprecation headers. The resources stay
 * prebuilt files; the gateway only counts, labels and checks requests in front of them.
 */
export function createApiGateway({ baseUrl, limiter, deprecations, log = console.error }: GatewayOptions): Handler {
  const app = door(problemJson(baseUrl), log);
  app.use((c, next) => (routeOf(c)?.methods.includes("POST") ? writesCors : readsCors)(c, next));
  app.use(quota(limiter, "public-api", { whenUnreachable: "serve", log }));
  app.all("*", async (c) => {
    const path = new URL(c.req.url).pathname;
    const method = c.req.method.toUpperCase();
    const route = matchRoute(path);
    if (!route) throw new Refusal("not_found", { detail: `${path} is not a resource of this API.`, resolution: notFoundResolution(path) });
    const allow = route.methods.join(", ");
    if (!route.methods.includes(method)) {
      throw methodNotAllowed(route.methods, {
        detail: `${method} is not supported on ${path}.`,
        resolution: `${path} supports ${allow}.${route.methods.includes("GET") ? ` Writes are POST: ${writePaths}.` : ""}`,
      });
    }
    const deprecation = findDeprecation(deprecations, method, route.path);
    const lifecycle = deprecation ? deprecationHeaders(deprecation, guideUrl(baseUrl, "api", "versioning")) : {};
    const response = route.kind === "function" ? await c.env.next!(functionRequest(c.req.raw)) : await serveRead(c, route, path);
    const out = new Response(method === "HEAD" ? null : response.body, response);
    for (const [name, value] of Object.entries(lifecycle)) out.headers.set(name, value);
    return out;
  });
  return handlerOf(app);
}

/** A function answers GET; a HEAD is its GET, the body dropped here (functions route by method, and HEAD is no route). */
const functionRequest = (request: Request) => (request.method === "HEAD" ? new Request(request, { method: "GET" }) : request);

async function serveRead(c: DoorContext, route: ApiRoute, path: string): Promise<Response> {
  // Fetch the whole file unconditionally; validators are the gateway's own (a strong ETag over the bytes).
  const upstream = await c.env.next!(new Request(c.req.url, { method: "GET", headers: { accept: "application/json" } }));
  if (upstream.status === 404) {
    await upstream.body?.cancel();
    throw new Refusal("not_found", { detail: `${path} is not a resource of this API.`, resolution: notFoundResolution(path) });
  }
  if (!upstream.ok) return upstream;
  const body = await upstream.arrayBuffer();
  const etag = await strongEtag(body);
  const headers = new Headers({
    "Content-Type": route.path === openApiPath ? "application/vnd.oai.openapi+json;version=3.1" : "application/json; charset=utf-8",
    "Cache-Control": readCacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    // The site's usage preferences (src/discovery/policy.ts), as on its pages and twins.
    ...Object.fromEntries(usageHeaders),
  });
  if (matchesIfNoneMatch(c.req.header("if-none-match") ?? null, etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(body.byteLength));
  return new Response(c.req.method === "HEAD" ? null : body, { status: 200, headers });
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
