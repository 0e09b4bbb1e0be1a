import type { APIRoute } from "astro";
import { skillsIndex } from "../../../discovery/skills/index.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

export const GET: APIRoute = async () => jsonResponse(await skillsIndex(await loadSite()));
