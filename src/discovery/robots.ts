import { aiCrawlers, contentSignals, contentSignalValue, contentUsageValue, disallowedPaths, usagePreferences } from "./policy.ts";
import { absolute, sitemapPath } from "../paths.ts";

/**
 * robots.txt (RFC 9309) with explicit groups for AI crawlers, and the usage preferences in every group twice: a
 * Content-Signal line and aipref's Content-Usage line (draft-ietf-aipref-attach), both from src/discovery/policy.ts.
 */
export function robotsTxt(baseUrl: string): string {
  const preferences = [`Content-Signal: ${contentSignalValue}`, `Content-Usage: ${contentUsageValue}`];
  const rules = (allow: boolean) => (allow ? [...disallowedPaths.map((p) => `Disallow: ${p}`), "Allow: /"] : ["Disallow: /"]);
  return [
    "# Content signals (contentsignals.org): yes = allowed, no = not allowed.",
    ...usagePreferences.map((p) => `#   ${p.contentSignal}=${contentSignals[p.contentSignal]}: ${p.meaning}`),
    "# Content-Usage (IETF aipref) says the same for search and train-ai: y = allowed, n = not allowed.",
    "User-agent: *",
    ...preferences,
    ...rules(true),
    "",
    ...aiCrawlers.flatMap((c) => [`# ${c.purpose}`, `User-agent: ${c.agent}`, ...preferences, ...rules(c.allow), ""]),
    `Sitemap: ${absolute(baseUrl, sitemapPath)}`,
    "",
  ].join("\n");
}
