import type { APIRoute } from "astro";
import { jsonResponse } from "../../../resources/json.ts";
import { prebuiltResources } from "../../../resources/prebuilt.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(prebuiltResources(await loadSite()));
