import type { APIRoute } from "astro";
import { contactResource } from "../../../resources/contact.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(contactResource(await loadSite()));
