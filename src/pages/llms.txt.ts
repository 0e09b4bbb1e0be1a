import type { APIRoute } from "astro";
import { llmsTxt } from "../discovery/llms.ts";
import { loadSite } from "../site/load.ts";

export const GET: APIRoute = async () => new Response(llmsTxt(await loadSite()));
