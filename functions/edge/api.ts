import type { Config, Context } from "@netlify/edge-functions";
import { apiGatewayFromEnv } from "../../src/api/from-env.ts";
import { platformEnv } from "../../src/config/env.ts";

const gateway = apiGatewayFromEnv(platformEnv);

export default (request: Request, context: Context) => gateway(request, { ip: context.ip, next: (r) => context.next(r) });

export const config: Config = { path: ["/api", "/api/*"] };
