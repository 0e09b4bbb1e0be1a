import type { APIRoute } from "astro";
import { openApiDocument } from "../../../api/openapi.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(openApiDocument(await loadSite()));
