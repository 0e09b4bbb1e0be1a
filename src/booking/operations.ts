import { Refusal } from "../http/refusal.ts";
import { fieldErrorsOf } from "../briefs/validate.ts";
import { bookCall, type BookingDeps, type BookingRequest } from "./book.ts";
import { bookingUnderKey, bookingView, cancelOwnBooking, ownBooking } from "./own.ts";
import { daysOf, freeTimes, type FreeTimes } from "./free-times.ts";
import { bookingOutcomeOf, invalidQuery, withCalendar, type BookingOutcome, type BookingView } from "./outcome.ts";
import { freeTimesQuerySchema } from "./schema.ts";

/**
 * The intro call's operations as every door offers them (REST, MCP, A2A): each answers its value or throws a Refusal
 * from the one table of conditions, which the door renders in its own format.
 */

/** Free times for a query as a door received it (REST: the query string; MCP and A2A: the arguments). */
export async function listFreeTimes(query: Record<string, unknown>, deps: BookingDeps): Promise<FreeTimes> {
  const parsed = freeTimesQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidQuery(fieldErrorsOf(parsed.error, query, "free-times query"));
  const days = daysOf(parsed.data, deps);
  if ("errors" in days) throw invalidQuery(days.errors ?? []);
  return withCalendar(() => freeTimes(days, deps));
}

/** Books the call (or checks it, for a dry run): the booking or the dry run's verdict. */
export async function bookIntroCall(request: BookingRequest, deps: BookingDeps, studio: string): Promise<BookingOutcome> {
  const outcome = bookingOutcomeOf(await withCalendar(() => bookCall(request, deps)), { studio });
  if (outcome instanceof Refusal) throw outcome;
  return outcome;
}

/**
 * What an Idempotency-Key of the grant booked, as a replay of it, if it booked anything: what any later answer to the
 * same request must report (an MCP confirmation answered again, say), never that nothing was booked.
 */
export async function bookedUnder(
  owner: string,
  idempotencyKey: string,
  deps: BookingDeps,
  studio: string,
): Promise<BookingOutcome | undefined> {
  const booking = await bookingUnderKey(owner, idempotencyKey, deps);
  const outcome = booking && bookingOutcomeOf({ kind: "booked", booking, replayed: true }, { studio });
  return outcome instanceof Refusal ? undefined : outcome;
}

/** The grant's own booking. */
export async function readBooking(id: string, owner: string, deps: BookingDeps): Promise<BookingView> {
  const found = await ownBooking(id, owner, deps);
  if (!found) throw notFound();
  return bookingView(found);
}

/** Cancels the grant's own booking; cancelling again answers the cancelled booking. */
export async function cancelIntroCall(id: string, owner: string, deps: BookingDeps): Promise<BookingView> {
  const cancelled = await withCalendar(() => cancelOwnBooking(id, owner, deps));
  if (!cancelled) throw notFound();
  return bookingView(cancelled);
}

/** Another grant's booking and none at all are the same answer. */
const notFound = () =>
  new Refusal("not_found", { detail: "This grant has no booking of that id.", resolution: "Use a booking_id your own booking returned." });
