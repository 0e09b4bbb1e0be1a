import { baseUrlFrom, type Env } from "../config/env.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { redisFromEnv } from "../store/redis.ts";
import { deprecations } from "./deprecations.ts";
import { createApiGateway, type GatewayContext } from "./gateway.ts";
import { configurationProblem } from "./problem.ts";

/**
 * The /api edge gateway wired to the deployment, built on the first request and kept for the life of the isolate
 * (so the limiter's cache of blocked clients stays warm). A misconfiguration is a 503 problem and a log line, and the
 * next request tries again.
 */
export function apiGatewayFromEnv(env: Env) {
  let gateway: ReturnType<typeof createApiGateway> | undefined;
  return async (request: Request, context: GatewayContext): Promise<Response> => {
    try {
      const emulator = env("NETLIFY_DEV") === "true";
      gateway ??= createApiGateway({
        baseUrl: baseUrlFrom(env),
        limiter: upstashLimiter(redisFromEnv(env), { cacheBlocked: !emulator }),
        deprecations,
        emulatorRetries: emulator,
      });
    } catch (error) {
      console.error(`CONFIGURATION ERROR: ${error instanceof Error ? error.message : String(error)}`);
      return configurationProblem(request);
    }
    return gateway(request, context);
  };
}
