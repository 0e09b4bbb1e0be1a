import { turnAfter, type Turn } from "../store/turns.ts";
import { ProviderUnavailable } from "./cal-com.ts";
import type { BookingDeps } from "./deps.ts";
import type { Booking } from "./store.ts";

/**
 * Requests that would make the same booking take turns (src/store/turns.ts): the retries of one Idempotency-Key under
 * the id its first request claimed, and the same booking sent again without a key while it is made. A waiting request
 * is answered with the booking, once made, and counts nothing; or it takes its turn once the other ended without one.
 */

/** How long a request waits for the one making its booking: about as long as that one may wait for Cal.com. */
export const claimWaitMs = (deps: BookingDeps) => (deps.cal.timeoutMs ?? 8_000) * 2 + 1_000;

type TurnOrBooking = { booking: Booking } | { working: Turn };

const waited = async (take: () => Promise<Turn | undefined>, made: () => Promise<Booking | null>, deps: BookingDeps) => {
  const gaveUp = () => new ProviderUnavailable("another request of the same booking is still booking");
  const turn = await turnAfter(take, made, { waitMs: claimWaitMs(deps), gaveUp });
  return "made" in turn ? { booking: turn.made } : { working: turn.turn };
};

/** A retry's turn under the id its key names: the booking once recorded under it, or the right to book under it. */
export const turnUnder = (id: string, deps: BookingDeps): Promise<TurnOrBooking> =>
  waited(
    () => deps.store.takeBusy(id, claimWaitMs(deps)),
    () => deps.store.get(id),
    deps,
  );

/** The turn of a booking sent without a key: the grant's booking of this person at this start, once made, or the right to make it. */
export const turnOfSame = (
  owner: string,
  fingerprint: string,
  at: { start: string; workEmail: string },
  deps: BookingDeps,
): Promise<TurnOrBooking> =>
  waited(
    () => deps.store.takeSameBooking(owner, fingerprint, claimWaitMs(deps)),
    () => deps.store.bookedAt(owner, at.start, at.workEmail),
    deps,
  );
