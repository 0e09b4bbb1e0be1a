import { linkHeader, pageLinks } from "../discovery/api-catalog.ts";
import { usageHeaders } from "../discovery/policy.ts";
import { twins } from "../markdown/twins.ts";
import { markdownContentType } from "../twins/serve.ts";
import { countTokens } from "../twins/tokens.ts";
import type { Site } from "./model.ts";
import { apiCatalogPath, absolute, notFoundPath, robotsPath } from "../paths.ts";

/**
 * Netlify's `_headers` file for the static pages and their twins. Per-page headers depend on the content
 * (each page's own twin, each twin's token count), so they are generated with the pages instead of being
 * listed by hand in netlify.toml. Headers that are the same for every file stay in netlify.toml. robots.txt states
 * Content-Usage in its header only (src/discovery/robots.ts).
 */
export function netlifyHeaders(site: Site): string {
  const rule = (path: string, headers: [string, string][]) => [path, ...headers.map(([name, value]) => `  ${name}: ${value}`)].join("\n");
  const all = twins(site);
  const notFound = all.find((t) => t.path === notFoundPath)!;
  return `${all
    .filter((t) => t.path !== notFoundPath)
    .flatMap((t) => [
      // The page by its URL and by its file (the local emulator matches rules after resolving the file).
      ...[t.path, t.path === "/" ? "/index.html" : `${t.path}.html`].map((path) =>
        rule(path, [["Vary", "Accept"], ["Link", linkHeader(pageLinks(t.markdownPath))], ...usageHeaders]),
      ),
      rule(t.markdownPath, [
        ["Content-Type", markdownContentType],
        ["Vary", "Accept"],
        ["X-Markdown-Tokens", String(countTokens(t.markdown))],
        ...usageHeaders,
        ["Link", `<${absolute(site.baseUrl, t.path)}>; rel="canonical"`],
      ]),
    ])
    .join("\n")}\n${rule(notFound.markdownPath, [
    // The edge function answers unknown pages with this twin and passes its count on.
    ["Content-Type", markdownContentType],
    ["X-Markdown-Tokens", String(countTokens(notFound.markdown))],
  ])}\n${rule(robotsPath, usageHeaders)}\n${rule(apiCatalogPath, [
    ["Link", `<${apiCatalogPath}>; rel="api-catalog"`],
    ["Access-Control-Allow-Origin", "*"],
  ])}\n`;
}
