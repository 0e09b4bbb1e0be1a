import { bookCall, fingerprintOf, type BookingDeps } from "../booking/book.ts";
import { daysOf, freeTimes, type FreeTimes } from "../booking/free-times.ts";
import { bookingScope, bookingToolNames } from "../booking/names.ts";
import { bookingUnderKey, bookingView, cancelOwnBooking, ownBooking } from "../booking/own.ts";
import { noSuchBooking, withCalendar } from "../booking/refusals.ts";
import { bookingSchema, cancelSchema, freeTimesQuerySchema } from "../booking/schema.ts";
import type { Booking } from "../booking/store.ts";
import { Refusal } from "../http/refusal.ts";
import type { QuotaResult } from "../limits/limiter.ts";
import { invalidInput, type Caller, type Operation } from "./operation.ts";

/** Booking as the deployment runs it (built on first use; undefined where no Cal.com event type is configured). */
export interface BookingServices {
  booking: () => BookingDeps | undefined | Promise<BookingDeps | undefined>;
  studio: string;
}

export type BookingView = ReturnType<typeof bookingView>;

/** What booking answers: the booking (new, or made before and answered again), or a dry run's verdict. */
export type BookingOutcome =
  | { kind: "booked" | "replayed"; booking: BookingView & { next_steps: string }; counted?: QuotaResult[] }
  | { kind: "dry_run"; result: { dry_run: true; valid: true; free: true; message: string } };

/** Every booking operation needs Cal.com: without it, each is refused the same way, at every door. */
export async function offered(services: BookingServices): Promise<BookingDeps> {
  const deps = await services.booking();
  if (!deps) throw new Refusal("booking_not_offered");
  return deps;
}

const dryRun = {
  dry_run: true,
  valid: true,
  free: true,
  message: "Everything checks out and the time is free; nothing was booked. Send it again without dry_run to book it.",
} as const;

const booked = (booking: Booking, replayed: boolean, studio: string) => {
  const view = bookingView(booking);
  const next_steps = `Cal.com sends the invitation to ${view.attendee.work_email}; ${studio} sees the booking${view.lead_id ? " with the brief" : ""}. Cancel with the booking_id if plans change.`;
  return { kind: replayed ? ("replayed" as const) : ("booked" as const), booking: { ...view, next_steps } };
};

export const bookIntroCall = {
  name: bookingToolNames.book,
  scope: bookingScope,
  input: bookingSchema,
  noun: "booking",
  invalid: "invalid_booking",
  idempotent: true,
  ready: offered,
  async run(input, { caller, idempotencyKey, services }) {
    const deps = await offered(services);
    // Stryker disable next-line ConditionalExpression: an idempotencyKey member that is undefined is read as none (bookCall)
    const request = { owner: caller.owner, address: caller.address, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) };
    const result = await withCalendar(() => bookCall(input, request, deps));
    if (result.kind === "dry_run") return { kind: "dry_run", result: dryRun };
    return { ...booked(result.booking, result.replayed, services.studio), counted: result.counted };
  },
} satisfies Operation<typeof bookingSchema, BookingOutcome, BookingServices>;

/** Cancels the grant's own booking; cancelling again answers the cancelled booking. */
export const cancelIntroCall = {
  name: bookingToolNames.cancel,
  scope: bookingScope,
  input: cancelSchema,
  noun: "cancellation",
  invalid: "invalid_booking",
  idempotent: false,
  ready: offered,
  async run(input, { caller, services }) {
    const deps = await offered(services);
    const cancelled = await withCalendar(() => cancelOwnBooking(input.booking_id, caller.owner, deps));
    if (!cancelled) throw noSuchBooking();
    return bookingView(cancelled);
  },
} satisfies Operation<typeof cancelSchema, BookingView, BookingServices>;

/** Free times for a query (a read: no scope, nothing written). */
export const listFreeTimes = {
  name: bookingToolNames.freeTimes,
  scope: undefined,
  input: freeTimesQuerySchema,
  noun: "free-times query",
  invalid: "invalid_query",
  idempotent: false,
  ready: offered,
  async run(query, { services }): Promise<FreeTimes> {
    const deps = await offered(services);
    const days = daysOf(query, deps);
    // Stryker disable next-line ArrayDeclaration: daysOf gives errors only when there are some; the fallback is for the type
    if ("errors" in days) throw invalidInput("invalid_query", days.errors ?? []);
    return withCalendar(() => freeTimes(days, deps));
  },
} satisfies Operation<typeof freeTimesQuerySchema, FreeTimes, BookingServices>;

/** The grant's own booking. */
export async function readBooking(id: string, caller: Pick<Caller, "owner">, services: BookingServices): Promise<BookingView> {
  const found = await ownBooking(id, caller.owner, await offered(services));
  if (!found) throw noSuchBooking();
  return bookingView(found);
}

/**
 * What an idempotency key of the grant booked, as a replay of it, if it booked anything: what any later answer to the
 * same request must report (an MCP confirmation answered again, say), never that nothing was booked.
 */
export async function bookedUnder(
  owner: string,
  key: string,
  services: BookingServices,
  sameAs?: Record<string, unknown>,
): Promise<BookingOutcome | undefined> {
  // With `sameAs`, only what the key booked for that very booking: a key used for another is no answer to this one.
  let fingerprint: string | undefined;
  if (sameAs) {
    const parsed = bookingSchema.safeParse(sameAs);
    if (!parsed.success) return undefined;
    fingerprint = await fingerprintOf(parsed.data);
  }
  const booking = await bookingUnderKey(owner, key, await offered(services), fingerprint);
  return booking && booked(booking, true, services.studio);
}
