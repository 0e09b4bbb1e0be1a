import { ConfigurationError } from "../config/env.ts";
import type { Configuration } from "../config/settings.ts";
import type { CalCom } from "./cal-com.ts";

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
