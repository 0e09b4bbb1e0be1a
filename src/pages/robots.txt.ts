import type { APIRoute } from "astro";
import { robotsTxt } from "../discovery/robots.ts";
import { loadSite } from "../site/load.ts";

export const GET: APIRoute = async () => new Response(robotsTxt((await loadSite()).baseUrl));
