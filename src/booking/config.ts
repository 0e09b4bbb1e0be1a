import type { Redis } from "@upstash/redis";
import { LeadStore } from "../briefs/store.ts";
import { ConfigurationError } from "../config/env.ts";
import type { Configuration } from "../config/settings.ts";
import type { Limiter } from "../limits/limiter.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import type { CalCom } from "./cal-com.ts";
import type { BookingDeps } from "./deps.ts";
import { BookingStore } from "./store.ts";

/**
 * Cal.com as the deployment configures it: undefined when booking is not offered (no event type, no key); a
 * ConfigurationError when it is half configured, named by the variable that is missing.
 */
export function calComFrom(settings: Configuration): CalCom | undefined {
  const eventTypeId = settings.get("CAL_EVENT_TYPE_ID");
  const apiKey = settings.get("CAL_API_KEY");
  if (eventTypeId === undefined) {
    if (apiKey !== undefined)
      throw new ConfigurationError("CAL_API_KEY is set but CAL_EVENT_TYPE_ID is not: set both to offer booking, or neither");
    return undefined;
  }
  const timeoutMs = settings.get("FRONTDOOR_CAL_TIMEOUT_MS");
  return {
    apiUrl: settings.get("CAL_API_URL"),
    eventTypeId,
    apiKey: settings.required("CAL_API_KEY"),
    ...(timeoutMs ? { timeoutMs } : {}),
  };
}

/** Whether the deployment offers booking to agents; the build asks, so tools, skills and pages agree with the functions. */
export const bookingOffered = (settings: Configuration): boolean => calComFrom(settings) !== undefined;

/** Booking as the deployment offers it, over the instance's store client and limiter; undefined without Cal.com. */
export function bookingFrom(
  settings: Configuration,
  prebuilt: PrebuiltResources,
  { redis, limiter }: { redis: Redis; limiter: Limiter },
): BookingDeps | undefined {
  const cal = calComFrom(settings);
  if (!cal) return undefined;
  return {
    cal,
    store: new BookingStore(redis),
    leads: new LeadStore(redis),
    limiter,
    lengthMinutes: prebuilt.contact.booking.duration_minutes,
    studioTimeZone: prebuilt.contact.hours.time_zone,
  };
}
