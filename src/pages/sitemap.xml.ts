import type { APIRoute } from "astro";
import { sitemapXml } from "../discovery/sitemap.ts";
import { indexablePages } from "../resources/pages.ts";
import { loadSite } from "../site/load.ts";

export const GET: APIRoute = async () => new Response(sitemapXml(indexablePages(await loadSite())));
