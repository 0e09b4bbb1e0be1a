import type { APIRoute } from "astro";
import { apiCatalog } from "../../discovery/api-catalog.ts";
import { jsonResponse } from "../../resources/json.ts";
import { loadSite } from "../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(apiCatalog(await loadSite()));
