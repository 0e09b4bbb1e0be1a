import { LeadStore } from "../briefs/store.ts";
import type { Env } from "../config/env.ts";
import { settingsFrom, type Configuration } from "../config/settings.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { publicJwksFromEnv } from "../tokens/keys.ts";
import { createAccessTokenVerifier } from "../tokens/verify.ts";
import type { BookingDeps } from "./book.ts";
import { calComFrom } from "./config.ts";
import { createBookingHandler } from "./http.ts";
import { BookingStore } from "./store.ts";

/** Booking as the deployment offers it, or undefined where no Cal.com event type is configured. */
export function bookingFromEnv(settings: Configuration, prebuilt: PrebuiltResources): BookingDeps | undefined {
  const cal = calComFrom(settings);
  if (!cal) return undefined;
  const redis = redisFromEnv(settings);
  return {
    cal,
    store: new BookingStore(redis),
    leads: new LeadStore(redis),
    limiter: upstashLimiter(redis),
    lengthMinutes: prebuilt.contact.booking.duration_minutes,
    studioTimeZone: prebuilt.contact.hours.time_zone,
  };
}

/** /api/v1/free-times and /api/v1/bookings wired to the deployment. */
export function bookingHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const settings = settingsFrom(env);
  return builtOnFirstUse(
    async () => {
      const baseUrl = settings.required("URL");
      return createBookingHandler({
        baseUrl,
        verifier: createAccessTokenVerifier({ baseUrl, jwks: publicJwksFromEnv(settings) }),
        booking: bookingFromEnv(settings, prebuilt),
        studio: prebuilt.site.name,
      });
    },
    (refusal, c) => problemJson(new URL(c.req.url).origin)(refusal, c),
  );
}
