import type { APIRoute } from "astro";
import { offersResource } from "../../../resources/offers.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(offersResource(await loadSite()));
