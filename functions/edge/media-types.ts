import type { Config, Context } from "@netlify/edge-functions";
import { apiCatalogContentType } from "../../src/discovery/api-catalog.ts";
import { apiCatalogPath } from "../../src/paths.ts";

// Static files whose names carry no extension get their registered media type here: a Content-Type in _headers is
// honoured on Netlify's CDN but not by netlify dev, and these types are what scanners check.
const types: Record<string, string> = { [apiCatalogPath]: apiCatalogContentType };

export default async (request: Request, context: Context) => {
  const response = await context.next();
  const type = types[new URL(request.url).pathname];
  if (!type || !response.ok) return response;
  const headers = new Headers(response.headers);
  headers.set("Content-Type", type);
  return new Response(response.body, { status: response.status, headers });
};

// A literal: Netlify reads this declaration before it runs anything.
export const config: Config = { path: "/.well-known/api-catalog" };
