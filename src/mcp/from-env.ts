import { isLocal, pipelineFromEnv } from "../briefs/config.ts";
import { fileBrief } from "../briefs/pipeline.ts";
import { baseUrlFrom, type Env } from "../config/env.ts";
import { builtOnce } from "../config/once.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { signingKeysFromEnv } from "../oauth/keys.ts";
import { createAccessTokenVerifier } from "../oauth/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/redis.ts";
import { rpcError } from "./errors.ts";
import { createMcpHandler, type McpRequestContext } from "./http.ts";
import { allowedOriginsFrom } from "./origins.ts";
import { createMcpServer, mcpTools } from "./server.ts";

/** /mcp wired to the deployment: the shared token verifier, the quota store, the brief pipeline. */
export function mcpHandlerFromEnv(env: Env, prebuilt: PrebuiltResources, card: object) {
  const build = async () => {
    const baseUrl = baseUrlFrom(env);
    const pipeline = pipelineFromEnv(env, prebuilt);
    const tools = mcpTools(prebuilt, {
      schema: pipeline.schema,
      studio: prebuilt.site.name,
      responseTime: prebuilt.site.response_time,
      file: (request) => fileBrief({ ...request, channel: "mcp" }, pipeline),
    });
    return createMcpHandler({
      baseUrl,
      allowedOrigins: allowedOriginsFrom(env, baseUrl),
      limiter: upstashLimiter(redisFromEnv(env), { cacheBlocked: !isLocal(env) }),
      verifier: createAccessTokenVerifier({ baseUrl, jwks: (await signingKeysFromEnv(env)).publicJwks }),
      createServer: () => createMcpServer(prebuilt, tools),
      card,
      emulatorRetries: isLocal(env),
    });
  };
  return builtOnce(build, (request) =>
    rpcError(new URL(request.url).origin, "service_unavailable", {
      detail: "The server is not configured correctly; its operator has been alerted in the logs.",
      headers: { "Retry-After": "300" },
    }),
  );
}
