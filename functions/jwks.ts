import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { netlifyFunction } from "../src/http/netlify.ts";

export default netlifyFunction(async () => (await import("../src/oauth/jwks-from-env.ts")).jwksHandlerFromEnv(platformEnv), platformEnv);

export const config: Config = { path: "/.well-known/jwks.json", method: ["GET"] };
