import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import { netlifyFunction } from "../src/http/netlify.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("briefs", import.meta.url)) as Promise<typeof import("../src/api/briefs-from-env.ts")>;

// Behind the /api edge gateway, which has already counted the request and checked the method.
export default netlifyFunction(async () => {
  const [{ briefsHandlerFromEnv }, { default: json }] = await Promise.all([
    door(),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
  ]);
  return briefsHandlerFromEnv(platformEnv, json as PrebuiltResources);
}, platformEnv);

export const config: Config = { path: "/api/v1/briefs", method: ["POST"] };
