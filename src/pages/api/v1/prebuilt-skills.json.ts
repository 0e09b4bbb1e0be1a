import type { APIRoute } from "astro";
import { skillFiles } from "../../../discovery/skills/files.ts";
import { skillsCatalog } from "../../../mcp/skills.ts";
import { jsonResponse } from "../../../resources/json.ts";
import { loadSite } from "../../../site/load.ts";

/**
 * Every skill's files for functions/mcp.ts to bundle, so /mcp serves the very bytes /.well-known/agent-skills/ serves.
 * Loaded here as /mcp loads them, so a skill the MCP SDK would refuse fails the build. Not an API resource: the /api
 * gateway answers 404 for its path, as for prebuilt.json.
 */
export const GET: APIRoute = async () => {
  const files = skillFiles(await loadSite());
  await skillsCatalog(files);
  return jsonResponse(files);
};
