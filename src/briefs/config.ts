import type { Redis } from "@upstash/redis";
import type { Configuration } from "../config/settings.ts";
import { limiterTimeoutMs, upstashLimiter, type Limiter } from "../limits/limiter.ts";
import { siteSizeIds, type PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { storeSettings } from "../store/redis.ts";
import { deliveryFromEnv } from "./delivery-config.ts";
import type { PipelineDeps } from "./pipeline.ts";
import { briefSchema } from "./schema.ts";

/**
 * Everything the brief pipeline needs, from the environment and the prebuilt content, over the instance's store client
 * and limiter (src/deployment.ts); a script without a deployment gets its own.
 */
export function pipelineFromEnv(
  settings: Configuration,
  prebuilt: PrebuiltResources,
  { redis, limiter }: { redis: Redis; limiter: Limiter } = storeOf(settings),
): PipelineDeps {
  return {
    ...deliveryFromEnv(settings, prebuilt, redis),
    schema: briefSchema(siteSizeIds(prebuilt)),
    limiter,
    dailyEmailLimit: settings.get("LEADS_EMAIL_DAILY_LIMIT"),
  };
}

const storeOf = (settings: Configuration) => {
  const redis = redisFromEnv(settings);
  return { redis, limiter: upstashLimiter(redis, { timeoutMs: limiterTimeoutMs(storeSettings(settings).timeoutMs) }) };
};
