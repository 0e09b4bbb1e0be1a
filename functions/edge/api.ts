import type { Config, Context } from "@netlify/edge-functions";
import { deprecations } from "../../src/api/deprecations.ts";
import { createApiGateway } from "../../src/api/gateway.ts";
import { configurationProblem } from "../../src/api/problem.ts";
import { baseUrlFrom, platformEnv } from "../../src/config/env.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { redisFromEnv } from "../../src/store/redis.ts";

// Kept for the life of the isolate, so the limiter's cache of blocked clients stays warm between requests.
let gateway: ReturnType<typeof createApiGateway> | undefined;

export default async (request: Request, context: Context) => {
  try {
    const emulator = platformEnv("NETLIFY_DEV") === "true";
    gateway ??= createApiGateway({
      baseUrl: baseUrlFrom(platformEnv),
      limiter: upstashLimiter(redisFromEnv(platformEnv), { cacheBlocked: !emulator }),
      deprecations,
      emulatorRetries: emulator,
    });
  } catch (error) {
    console.error(`CONFIGURATION ERROR: ${error instanceof Error ? error.message : String(error)}`);
    return configurationProblem(request);
  }
  return gateway(request, { ip: context.ip, next: (r) => context.next(r) });
};

export const config: Config = { path: ["/api", "/api/*"] };
