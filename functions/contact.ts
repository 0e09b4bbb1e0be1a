import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { netlifyFunction } from "../src/http/netlify.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// The contact page itself is static; only its form's POST comes here.
export default netlifyFunction(async () => {
  const [{ contactHandlerFromEnv }, { default: json }] = await Promise.all([
    import("../src/contact/from-env.ts"),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
  ]);
  return contactHandlerFromEnv(platformEnv, json as PrebuiltResources);
}, platformEnv);

export const config: Config = { path: "/contact", method: ["POST"] };
