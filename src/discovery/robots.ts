import { aiCrawlers, contentSignals, contentSignalValue, disallowedPaths } from "./policy.ts";
import { absolute, sitemapPath } from "../paths.ts";

/** robots.txt (RFC 9309) with explicit groups for AI crawlers and a Content-Signal line. */
export function robotsTxt(baseUrl: string): string {
  const rules = (allow: boolean) => (allow ? [...disallowedPaths.map((p) => `Disallow: ${p}`), "Allow: /"] : ["Disallow: /"]);
  return [
    "# Content signals (contentsignals.org): yes = allowed, no = not allowed.",
    `#   search=${contentSignals.search}: build a search index and show links and snippets.`,
    `#   ai-input=${contentSignals["ai-input"]}: use the content as input to AI models answering a question.`,
    `#   ai-train=${contentSignals["ai-train"]}: train or fine-tune AI models.`,
    "User-agent: *",
    `Content-Signal: ${contentSignalValue}`,
    ...rules(true),
    "",
    ...aiCrawlers.flatMap((c) => [
      `# ${c.purpose}`,
      `User-agent: ${c.agent}`,
      `Content-Signal: ${contentSignalValue}`,
      ...rules(c.allow),
      "",
    ]),
    `Sitemap: ${absolute(baseUrl, sitemapPath)}`,
    "",
  ].join("\n");
}
