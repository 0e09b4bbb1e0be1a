import type { Config, Context } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { oauthHandlerFromEnv } from "../src/oauth/from-env.ts";

const handler = oauthHandlerFromEnv(platformEnv);

export default (request: Request, context: Context) => handler(request, { ip: context.ip });

export const config: Config = { path: ["/oauth/register", "/oauth/token", "/oauth/authorize"] };
