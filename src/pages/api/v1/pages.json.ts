import type { APIRoute } from "astro";
import { pagesResource } from "../../../resources/pages.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(pagesResource(await loadSite()));
