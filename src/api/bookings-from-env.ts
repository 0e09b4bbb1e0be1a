import type { Env } from "../config/env.ts";
import { deployment, writes } from "../deployment.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { problemJsonAtOrigin } from "../http/formats.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { createBookingHandler } from "./bookings.ts";

/** /api/v1/free-times and /api/v1/bookings wired to the deployment (src/deployment.ts). */
export function bookingHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const d = deployment(env);
  const { booking } = writes(d, prebuilt);
  return builtOnFirstUse(async () => {
    // A half-configured Cal.com is a ConfigurationError now, for every route.
    booking.booking();
    return createBookingHandler({ baseUrl: d.baseUrl(), verifier: d.verifier(), booking });
  }, problemJsonAtOrigin);
}
