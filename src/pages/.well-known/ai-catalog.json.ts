import type { APIRoute } from "astro";
import { aiCatalog } from "../../discovery/ai-catalog.ts";
import { jsonBody } from "../../resources/json.ts";
import { loadSite } from "../../site/load.ts";

// The AI Catalog; _headers gives it its media type (src/site/headers.ts).
export const GET: APIRoute = async () => new Response(jsonBody(aiCatalog(await loadSite())));
