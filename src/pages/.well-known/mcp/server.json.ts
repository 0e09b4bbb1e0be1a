import type { APIRoute } from "astro";
import { platformEnv } from "../../../config/env.ts";
import { settingsFrom } from "../../../config/settings.ts";
import { serverCard } from "../../../mcp/card.ts";
import { registryServerJson } from "../../../mcp/registry.ts";
import { jsonBody } from "../../../resources/json.ts";
import { prebuiltResources } from "../../../resources/prebuilt.ts";
import { loadSite } from "../../../site/load.ts";

// server.json for `mcp-publisher publish`, from the server card; its name from MCP_REGISTRY_NAME when that is set.
export const GET: APIRoute = async () => {
  const card = serverCard(prebuiltResources(await loadSite()));
  return new Response(jsonBody(registryServerJson(card, settingsFrom(platformEnv).get("MCP_REGISTRY_NAME"))));
};
