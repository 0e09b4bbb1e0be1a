import type { Config, Context } from "@netlify/edge-functions";
import { mentionsMarkdown } from "../../src/twins/negotiate.ts";
import { serveMarkdownTwin } from "../../src/twins/serve.ts";

// Rule 5: a page URL asked for with Accept: text/markdown answers with the page's prebuilt Markdown twin.
export default (request: Request, _context: Context) => serveMarkdownTwin(request, (path) => fetch(new URL(path, request.url)));

export const config: Config = {
  path: "/*",
  // Only requests that mention text/markdown, in any case, reach it, whatever the method; the handler answers GET and
  // HEAD and lets everything else (other methods, /favicon.svg) pass through. Netlify matches the value as a regex.
  excludedPath: ["/api/*", "/.well-known/*", "/.netlify/*", "/_astro/*", "/oauth/*", "/mcp", "/mcp/*", "/a2a/*", "/*.md"],
  header: { accept: mentionsMarkdown },
};
