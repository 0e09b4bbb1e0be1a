import { Redis } from "@upstash/redis";
import { ConfigurationError, type Env } from "../config/env.ts";

/**
 * The Upstash Redis client for production state (quotas, and later leads and tasks). Locally `npm start` points
 * the same variables at the local store, so there is one code path; without them nothing can run.
 */
export function redisFromEnv(env: Env): Redis {
  const url = env("UPSTASH_REDIS_REST_URL");
  const token = env("UPSTASH_REDIS_REST_TOKEN");
  if (!url || !token) {
    throw new ConfigurationError(
      "UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are not set. Production needs an Upstash Redis database; " +
        "locally, `npm start` runs the local store and sets them.",
    );
  }
  return new Redis({ url, token, enableTelemetry: false, retry: { retries: 1, backoff: () => 50 } });
}
