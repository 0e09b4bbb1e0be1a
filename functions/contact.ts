import type { Config, Context } from "@netlify/functions";
import json from "../dist/api/v1/prebuilt.json" with { type: "json" };
import { platformEnv } from "../src/config/env.ts";
import { contactHandlerFromEnv } from "../src/contact/from-env.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

const handler = contactHandlerFromEnv(platformEnv, json as PrebuiltResources);

// The contact page itself is static; only its form's POST comes here.
export default (request: Request, context: Context) => handler(request, { ip: context.ip, background: (work) => context.waitUntil(work) });

export const config: Config = { path: "/contact", method: ["POST"] };
