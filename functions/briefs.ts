import type { Config, Context } from "@netlify/functions";
import json from "../dist/api/v1/prebuilt.json" with { type: "json" };
import { briefsHandlerFromEnv } from "../src/briefs/from-env.ts";
import { platformEnv } from "../src/config/env.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

const handler = briefsHandlerFromEnv(platformEnv, json as PrebuiltResources);

// Behind the /api edge gateway, which has already counted the request and checked the method.
export default (request: Request, context: Context) => handler(request, (work) => context.waitUntil(work));

export const config: Config = { path: "/api/v1/briefs", method: ["POST"] };
