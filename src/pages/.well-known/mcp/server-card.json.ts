import type { APIRoute } from "astro";
import { serverCard } from "../../../mcp/card.ts";
import { jsonBody } from "../../../resources/json.ts";
import { prebuiltResources } from "../../../resources/prebuilt.ts";
import { loadSite } from "../../../site/load.ts";

// The MCP server card; functions/mcp.ts bundles this file and serves it at /mcp/server-card, SEP-2127's location.
export const GET: APIRoute = async () => new Response(jsonBody(serverCard(prebuiltResources(await loadSite()))));
