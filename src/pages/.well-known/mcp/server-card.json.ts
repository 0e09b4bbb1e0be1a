import type { APIRoute } from "astro";
import { serverCard } from "../../../mcp/card.ts";
import { jsonBody } from "../../../resources/json.ts";
import { prebuiltResources } from "../../../resources/prebuilt.ts";
import { loadSite } from "../../../site/load.ts";

// The MCP server card, listed from the server itself at build time; functions/mcp.ts serves the same file at /mcp/server-card.
export const GET: APIRoute = async () => new Response(jsonBody(await serverCard(prebuiltResources(await loadSite()))));
