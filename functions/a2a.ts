import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import { netlifyFunction } from "../src/http/netlify.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("a2a", import.meta.url)) as Promise<typeof import("../src/a2a/from-env.ts")>;

export default netlifyFunction(async () => {
  const [{ a2aHandlerFromEnv }, { default: json }] = await Promise.all([
    door(),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
  ]);
  return a2aHandlerFromEnv(platformEnv, json as PrebuiltResources);
}, platformEnv);

// Every path under the endpoint too, so that one it does not serve is its not_found (in the binding's format), not the site's page.
export const config: Config = { path: ["/a2a/v1", "/a2a/v1/*"] };
