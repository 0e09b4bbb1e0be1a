import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import { netlifyFunction } from "../src/http/netlify.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("contact", import.meta.url)) as Promise<typeof import("../src/contact/from-env.ts")>;

// The contact page itself is static; only its form's POST comes here.
export default netlifyFunction(async () => {
  const [{ contactHandlerFromEnv }, { default: json }] = await Promise.all([
    door(),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
  ]);
  return contactHandlerFromEnv(platformEnv, json as PrebuiltResources);
}, platformEnv);

export const config: Config = { path: "/contact", method: ["POST"] };
