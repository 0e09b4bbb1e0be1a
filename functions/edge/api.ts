import type { Config } from "@netlify/edge-functions";
import { apiGatewayFromEnv } from "../../src/api/from-env.ts";
import { platformEnv } from "../../src/config/env.ts";
import { netlifyEdgeFunction } from "../../src/http/netlify.ts";

// The edge process lives across requests: the gateway is built once, on the first.
const gateway = apiGatewayFromEnv(platformEnv);
export default netlifyEdgeFunction(async () => gateway, platformEnv);

export const config: Config = { path: ["/api", "/api/*"] };
