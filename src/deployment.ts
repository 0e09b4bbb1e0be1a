import { bookingFrom } from "./booking/config.ts";
import { pipelineFromEnv } from "./briefs/config.ts";
import type { Env } from "./config/env.ts";
import { settingsFrom } from "./config/settings.ts";
import { lazy } from "./lazy.ts";
import { limiterTimeoutMs, upstashLimiter } from "./limits/limiter.ts";
import type { BookingServices } from "./operations/booking.ts";
import { briefServices } from "./operations/briefs.ts";
import type { PrebuiltResources } from "./resources/prebuilt.ts";
import { redisFromEnv } from "./store/node-requester.ts";
import { storeSettings } from "./store/redis.ts";
import { publicJwksFromEnv } from "./tokens/keys.ts";
import { createAccessTokenVerifier } from "./tokens/verify.ts";

/**
 * The deployment as one function instance sees it: the settings, parsed once, and every service a door uses, each built
 * on first use and kept for the instance's life, over one store client and one limiter. A setting that is wrong is a
 * ConfigurationError where a service first needs it, and is read again on the next use.
 */
export function deployment(env: Env) {
  const settings = settingsFrom(env);
  const redis = lazy(() => redisFromEnv(settings));
  const limiter = lazy(() => upstashLimiter(redis(), { timeoutMs: limiterTimeoutMs(storeSettings(settings).timeoutMs) }));
  const baseUrl = lazy(() => settings.required("URL"));
  return {
    settings,
    baseUrl,
    redis,
    limiter,
    /** The access-token verifier every door shares (jose loads with the first token). */
    verifier: lazy(() => createAccessTokenVerifier({ baseUrl: baseUrl(), jwks: publicJwksFromEnv(settings) })),
  };
}

export type Deployment = ReturnType<typeof deployment>;

/** What the doors that file and book use, over the deployment's content (the build's prebuilt resources). */
export function writes(d: Deployment, prebuilt: PrebuiltResources) {
  const store = () => ({ redis: d.redis(), limiter: d.limiter() });
  const pipeline = lazy(() => pipelineFromEnv(d.settings, prebuilt, store()));
  const booking = lazy(() => bookingFrom(d.settings, prebuilt, store()));
  return {
    pipeline,
    briefs: lazy(() => briefServices(pipeline(), { studio: prebuilt.site.name, responseTime: prebuilt.site.response_time })),
    /** Booking's services; its deps are read when a booking operation first needs them (a half-configured Cal.com refuses then). */
    booking: { booking, studio: prebuilt.site.name } satisfies BookingServices,
  };
}
