import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { jwksHandlerFromEnv } from "../src/oauth/jwks-from-env.ts";

const handler = jwksHandlerFromEnv(platformEnv);

export default (request: Request) => handler(request);

export const config: Config = { path: "/.well-known/jwks.json", method: ["GET"] };
