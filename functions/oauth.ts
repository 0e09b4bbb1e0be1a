import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { netlifyFunction } from "../src/http/netlify.ts";

export default netlifyFunction(async () => (await import("../src/oauth/from-env.ts")).oauthHandlerFromEnv(platformEnv), platformEnv);

export const config: Config = { path: ["/oauth/register", "/oauth/token", "/oauth/authorize"] };
