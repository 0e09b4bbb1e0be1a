import type { Config, Context } from "@netlify/functions";
import json from "../dist/api/v1/prebuilt.json" with { type: "json" };
import { a2aHandlerFromEnv } from "../src/a2a/from-env.ts";
import { platformEnv } from "../src/config/env.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

const handler = a2aHandlerFromEnv(platformEnv, json as PrebuiltResources);

export default (request: Request, context: Context) => handler(request, { ip: context.ip, background: (work) => context.waitUntil(work) });

export const config: Config = { path: ["/a2a/v1"] };
