import type { Config, Context } from "@netlify/functions";
import json from "../dist/api/v1/prebuilt.json" with { type: "json" };
import card from "../dist/.well-known/mcp/server-card.json" with { type: "json" };
import { platformEnv } from "../src/config/env.ts";
import { mcpHandlerFromEnv } from "../src/mcp/from-env.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

const handler = mcpHandlerFromEnv(platformEnv, json as PrebuiltResources, card);

export default (request: Request, context: Context) => handler(request, { ip: context.ip });

export const config: Config = { path: ["/mcp", "/mcp/server-card"] };
