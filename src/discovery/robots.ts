import { aiCrawlers, contentSignals, contentSignalValue, contentUsageValue, disallowedPaths, usagePreferences } from "./policy.ts";
import { absolute, sitemapPath } from "../paths.ts";

/**
 * robots.txt (RFC 9309) with explicit groups for AI crawlers, and the usage preferences in every group as a
 * Content-Signal line. aipref's Content-Usage (draft-ietf-aipref-attach) says the same in the file's header
 * (src/site/headers.ts), not as a line: crawlers and Lighthouse's robots.txt audit refuse a directive they do not know,
 * and Lighthouse knows Content-Signal only. Both come from src/discovery/policy.ts.
 */
export function robotsTxt(baseUrl: string): string {
  const preferences = [`Content-Signal: ${contentSignalValue}`];
  const rules = (allow: boolean) => (allow ? [...disallowedPaths.map((p) => `Disallow: ${p}`), "Allow: /"] : ["Disallow: /"]);
  return [
    "# Content signals (contentsignals.org): yes = allowed, no = not allowed.",
    ...usagePreferences.map((p) => `#   ${p.contentSignal}=${contentSignals[p.contentSignal]}: ${p.meaning}`),
    `# This file's Content-Usage header (IETF aipref) says the same for search and train-ai: ${contentUsageValue}.`,
    "User-agent: *",
    ...preferences,
    ...rules(true),
    "",
    ...aiCrawlers.flatMap((c) => [`# ${c.purpose}`, `User-agent: ${c.agent}`, ...preferences, ...rules(c.allow), ""]),
    `Sitemap: ${absolute(baseUrl, sitemapPath)}`,
    "",
  ].join("\n");
}
