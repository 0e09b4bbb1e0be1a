import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { netlifyFunction } from "../src/http/netlify.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

export default netlifyFunction(async () => {
  const [{ a2aHandlerFromEnv }, { default: json }] = await Promise.all([
    import("../src/a2a/from-env.ts"),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
  ]);
  return a2aHandlerFromEnv(platformEnv, json as PrebuiltResources);
}, platformEnv);

export const config: Config = { path: ["/a2a/v1"] };
