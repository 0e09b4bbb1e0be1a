import type { Env } from "../config/env.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { siteSizeIds, type PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { deliveryFromEnv } from "./delivery-config.ts";
import { dailyEmailLimitFrom } from "./held.ts";
import type { PipelineDeps } from "./pipeline.ts";
import { briefSchema } from "./schema.ts";

/** Everything the brief pipeline needs, from the environment and the prebuilt content. */
export function pipelineFromEnv(env: Env, prebuilt: PrebuiltResources): PipelineDeps {
  const redis = redisFromEnv(env);
  return {
    ...deliveryFromEnv(env, prebuilt, redis),
    schema: briefSchema(siteSizeIds(prebuilt)),
    limiter: upstashLimiter(redis),
    dailyEmailLimit: dailyEmailLimitFrom(env("LEADS_EMAIL_DAILY_LIMIT")),
  };
}
