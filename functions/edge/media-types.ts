import type { Config, Context } from "@netlify/edge-functions";
import { matchesIfNoneMatch } from "../../src/http/etag.ts";
import { aiCatalogMediaType, apiCatalogContentType } from "../../src/discovery/api-catalog.ts";
import { serverCardMediaType } from "../../src/mcp/constants.ts";
import { registryAuthContentType } from "../../src/mcp/registry.ts";
import { aiCatalogPath, apiCatalogPath, registryAuthPath, serverCardWellKnownPath } from "../../src/paths.ts";
import { discoveryPreflight } from "../../src/discovery/preflight.ts";

// Static discovery documents get their registered media types here, which scanners check: a Content-Type in _headers
// is honoured on Netlify's CDN but not by netlify dev, which types a file by its extension (none, or .json).
const types: Record<string, string> = {
  [apiCatalogPath]: apiCatalogContentType,
  [aiCatalogPath]: aiCatalogMediaType,
  [serverCardWellKnownPath]: serverCardMediaType,
  // Only served when the build has MCP_REGISTRY_AUTH_PUBLIC_KEY; a 404 passes through untouched.
  [registryAuthPath]: registryAuthContentType,
};

export default async (request: Request, context: Context) => {
  // Every document under /.well-known is public: a browser's preflight for one is answered here, since static files
  // (and the rewrites to them) take no OPTIONS.
  if (request.method === "OPTIONS") return discoveryPreflight();
  const type = types[new URL(request.url).pathname];
  // Nothing to type and nothing to revalidate: the platform's answer, untouched.
  if (!type && !request.headers.has("if-none-match")) return context.next();
  const response = await context.next();
  if (!response.ok) return response;
  const headers = new Headers(response.headers);
  if (type) headers.set("Content-Type", type);
  // netlify dev fetches a file behind an edge function without the client's validators, so every revalidation of a
  // document here is answered here.
  const etag = headers.get("etag");
  if (etag && matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    await response.body?.cancel();
    return new Response(null, { status: 304, headers });
  }
  return type ? new Response(response.body, { status: response.status, headers }) : response;
};

// Literals: Netlify reads this declaration before it runs anything.
// Every document under /.well-known: the types below for four of them, and any one's preflight.
export const config: Config = { path: "/.well-known/*" };
