import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { problemJsonAtOrigin } from "../http/formats.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { limiterTimeoutMs, upstashLimiter } from "../limits/limiter.ts";
import { edgeRedisFromEnv, storeSettings } from "../store/redis.ts";
import { deprecations } from "./deprecations.ts";
import { createApiGateway } from "./gateway.ts";

/**
 * The /api edge gateway wired to the deployment, built on the first request and kept for the life of the isolate
 * (so the limiter's cache of blocked clients stays warm). A misconfiguration is a 503 problem and a log line, and the
 * next request tries again.
 */
export function apiGatewayFromEnv(env: Env) {
  const settings = settingsFrom(env);
  return builtOnFirstUse(
    async () =>
      createApiGateway({
        baseUrl: settings.required("URL"),
        limiter: upstashLimiter(edgeRedisFromEnv(settings), { timeoutMs: limiterTimeoutMs(storeSettings(settings).timeoutMs) }),
        deprecations,
      }),
    problemJsonAtOrigin,
  );
}
