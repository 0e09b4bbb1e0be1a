import type { APIRoute } from "astro";
import { companyResource } from "../../../resources/company.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(companyResource(await loadSite()));
