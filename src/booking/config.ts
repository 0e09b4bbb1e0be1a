import type { Redis } from "@upstash/redis";
import { LeadStore } from "../briefs/store.ts";
import { ConfigurationError } from "../config/env.ts";
import type { Configuration } from "../config/settings.ts";
import type { Limiter } from "../limits/limiter.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import type { CalCom } from "./cal-com.ts";
import type { BookingDeps } from "./deps.ts";
import { bookingOfferedIn } from "./names.ts";
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

/**
 * Whether the deployment offers booking to agents: the build asks, so that tools, skills and pages agree with the
 * functions, and asks only CAL_EVENT_TYPE_ID, which is no secret. The key is the functions' alone (bookingFrom).
 */
export const bookingOffered = (settings: Configuration): boolean => settings.get("CAL_EVENT_TYPE_ID") !== undefined;

/**
 * A build and functions that disagree on Cal.com: a deploy whose Builds and Functions scopes differ. Either way the site
 * and its cards would say one thing and the booking operations do another, so they refuse, naming the fix.
 */
function disagreement(cal: CalCom | undefined, prebuilt: PrebuiltResources): ConfigurationError | undefined {
  const offered = bookingOfferedIn(prebuilt);
  if (cal && !offered)
    return new ConfigurationError(
      "CAL_EVENT_TYPE_ID is set for the functions but the build did not see it, so the site and the cards offer no booking: set it for the Builds scope too and deploy again, or unset it",
    );
  if (!cal && offered)
    return new ConfigurationError(
      "the build offers booking (CAL_EVENT_TYPE_ID was set when it ran) but the functions have no CAL_EVENT_TYPE_ID: set it and CAL_API_KEY for the Functions scope, or unset it for Builds and deploy again",
    );
  return undefined;
}

/** Booking as the deployment offers it, over the instance's store client and limiter; undefined without Cal.com. */
export function bookingFrom(
  settings: Configuration,
  prebuilt: PrebuiltResources,
  { redis, limiter }: { redis: Redis; limiter: Limiter },
): BookingDeps | undefined {
  const cal = calComFrom(settings);
  const problem = disagreement(cal, prebuilt);
  if (problem) throw problem;
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
