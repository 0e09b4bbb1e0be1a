import { usageHeaders } from "../discovery/policy.ts";

import { matchesIfNoneMatch } from "../http/etag.ts";
import { prefersMarkdown } from "./negotiate.ts";
import { markdownPath, notFoundPath } from "../paths.ts";

/** Reads a file of the published site by its path, as the platform serves it. */
export type StaticFetch = (path: string) => Promise<Response>;

export const markdownContentType = "text/markdown; charset=utf-8";

/**
 * The page a path names: /offers, /offers/ and /offers.html all name /offers; /index.html names /.
 * Paths of other files (/favicon.svg, /offers.md) name no page.
 */
export function pagePath(pathname: string): string | undefined {
  const path = pathname.replace(/(?:\/index)?\.html?$/i, "").replace(/\/+$/, "") || "/";
  return /\.[a-z0-9]+$/i.test(path) ? undefined : path;
}

/**
 * Serves the Markdown twin of a page to clients that ask for it, or returns undefined so the platform goes
 * on to serve the HTML. Unknown pages get the 404 page's twin with status 404.
 */
export async function serveMarkdownTwin(request: Request, fetchStatic: StaticFetch): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  if (!prefersMarkdown(request.headers.get("accept"))) return undefined;
  const path = pagePath(new URL(request.url).pathname);
  if (path === undefined) return undefined;

  let status = 200;
  let twin = await fetchStatic(markdownPath(path));
  if (!twin.ok) {
    await twin.body?.cancel();
    status = 404;
    twin = await fetchStatic(markdownPath(notFoundPath));
    if (!twin.ok) {
      await twin.body?.cancel();
      return undefined;
    }
  }

  const body = await twin.text();
  const headers = new Headers({
    "Content-Type": markdownContentType,
    Vary: "Accept",
    "Cache-Control": "public, max-age=0, must-revalidate",
    ...Object.fromEntries(usageHeaders),
  });
  // The exact count is computed at build time into _headers (src/twins/tokens.ts); the static twin carries it.
  const tokens = twin.headers.get("x-markdown-tokens");
  if (tokens) headers.set("X-Markdown-Tokens", tokens);
  if (status === 200) headers.set("Link", `<${new URL(path, request.url).href}>; rel="canonical"`);
  const etag = twin.headers.get("etag");
  if (etag && status === 200) headers.set("ETag", etag);
  // The static file is fetched without the client's validators, so its revalidation is answered here.
  if (etag && status === 200 && matchesIfNoneMatch(request.headers.get("if-none-match"), etag))
    return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : body, { status, headers });
}
