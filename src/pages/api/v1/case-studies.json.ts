import type { APIRoute } from "astro";
import { caseStudiesResource } from "../../../resources/case-studies.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(caseStudiesResource(await loadSite()));
