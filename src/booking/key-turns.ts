import { ProviderUnavailable } from "./cal-com.ts";
import type { BookingDeps } from "./deps.ts";
import type { Booking } from "./store.ts";

/**
 * Retries of one Idempotency-Key take turns under the id its first request claimed: a busy marker (SET NX) says which
 * request is booking under it; a retry waits for that request's booking, or for its turn once it ended without one.
 */

/** How long a retry waits for the request that claimed its key: about as long as that one may wait for Cal.com. */
export const claimWaitMs = (deps: BookingDeps) => (deps.cal.timeoutMs ?? 8_000) * 2 + 1_000;

/**
 * A retry's turn under the id its key names: the booking, once the request booking under it has recorded one, or the
 * right to book under it once that request has ended without one. Waits about as long as a request may wait for Cal.com.
 */
export async function turnUnder(id: string, deps: BookingDeps): Promise<{ booking: Booking } | { working: { done(): Promise<void> } }> {
  const until = Date.now() + claimWaitMs(deps);
  for (;;) {
    const booking = await deps.store.get(id);
    if (booking) return { booking };
    const working = await deps.store.takeBusy(id, claimWaitMs(deps));
    if (working) {
      // It may have recorded its booking just before it gave up its turn.
      const made = await deps.store.get(id);
      if (!made) return { working };
      await working.done();
      return { booking: made };
    }
    if (Date.now() >= until) throw new ProviderUnavailable("another request of the same Idempotency-Key is still booking");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
