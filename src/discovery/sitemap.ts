import type { IndexablePage } from "../resources/pages.ts";

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** sitemap.xml: exactly the indexable pages that the pages resource lists. */
export function sitemapXml(pages: IndexablePage[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...pages.map((p) => `  <url><loc>${escapeXml(p.url)}</loc><lastmod>${p.updated}</lastmod></url>`),
    "</urlset>",
    "",
  ].join("\n");
}
