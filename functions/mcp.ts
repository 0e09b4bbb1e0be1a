import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import { netlifyFunction } from "../src/http/netlify.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("mcp", import.meta.url)) as Promise<typeof import("../src/mcp/from-env.ts")>;

export default netlifyFunction(async () => {
  const [{ mcpHandlerFromEnv }, { default: json }, { default: card }, { default: skills }] = await Promise.all([
    door(),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
    import("../dist/.well-known/mcp/server-card.json", { with: { type: "json" } }),
    import("../dist/api/v1/prebuilt-skills.json", { with: { type: "json" } }),
  ]);
  return mcpHandlerFromEnv(platformEnv, json as PrebuiltResources, card, skills as Record<string, string>);
}, platformEnv);

// Every path under /mcp, so that one it does not serve is its not_found (a JSON-RPC error), not the site's page.
export const config: Config = { path: ["/mcp", "/mcp/*"] };
