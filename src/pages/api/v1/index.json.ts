import type { APIRoute } from "astro";
import { apiIndex } from "../../../resources/index.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(apiIndex(await loadSite()));
