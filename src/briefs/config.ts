import type { Configuration } from "../config/settings.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { siteSizeIds, type PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { deliveryFromEnv } from "./delivery-config.ts";
import type { PipelineDeps } from "./pipeline.ts";
import { briefSchema } from "./schema.ts";

/** Everything the brief pipeline needs, from the environment and the prebuilt content. */
export function pipelineFromEnv(settings: Configuration, prebuilt: PrebuiltResources): PipelineDeps {
  const redis = redisFromEnv(settings);
  return {
    ...deliveryFromEnv(settings, prebuilt, redis),
    schema: briefSchema(siteSizeIds(prebuilt)),
    limiter: upstashLimiter(redis),
    dailyEmailLimit: settings.get("LEADS_EMAIL_DAILY_LIMIT"),
  };
}
