import { Refusal } from "../http/refusal.ts";
import { quotaHeaders } from "../limits/headers.ts";
import type { QuotaResult } from "../limits/limiter.ts";
import type { BookingResult } from "./book.ts";
import { bookingView } from "./own.ts";
import { ProviderUnavailable } from "./cal-com.ts";
import type { FieldError } from "../briefs/validate.ts";

export type BookingView = ReturnType<typeof bookingView>;

/** What every door tells of a booking: the booking (new or replayed), a dry run's verdict, or a Refusal to render. */
export type BookingOutcome =
  | { kind: "booked" | "replayed"; booking: BookingView & { next_steps: string }; counted?: QuotaResult[] }
  | { kind: "dry_run"; result: { dry_run: true; valid: true; free: true; message: string } };

const fieldsDetail = (errors: FieldError[]) =>
  `${errors.length} field${errors.length === 1 ? " is" : "s are"} missing or invalid: ${errors.map((e) => e.message).join("; ")}.`;

const freeCount = (n: number) => (n === 0 ? "No other time is free" : n === 1 ? "One other time is free" : `${n} other times are free`);

/** A query refused field by field (free times' days). */
export const invalidQuery = (errors: FieldError[]) =>
  new Refusal("invalid_query", { detail: fieldsDetail(errors), extensions: { errors } });

export function bookingOutcomeOf(result: BookingResult, { studio }: { studio: string }): BookingOutcome | Refusal {
  switch (result.kind) {
    case "invalid_booking":
      return new Refusal("invalid_booking", { detail: fieldsDetail(result.errors), extensions: { errors: result.errors } });
    case "invalid_idempotency_key":
      return new Refusal("invalid_idempotency_key");
    case "idempotency_key_reused":
      return new Refusal("idempotency_key_reused", {
        detail: "The Idempotency-Key was already used in the last 24 hours with a different booking.",
      });
    case "booking_quota_exceeded":
      return new Refusal("booking_quota_exceeded", {
        detail: `${result.quota.policy === "bookings-per-address" ? "Bookings from this address, every grant together, have reached" : "This grant has booked"} its ${result.quota.limit} calls for now; retry in ${Math.max(1, result.quota.resetSeconds)} seconds.`,
        headers: quotaHeaders(result.quota),
      });
    case "slot_taken":
      return new Refusal("slot_taken", {
        detail: `That start is not a free time. ${freeCount(result.freeTimes.times.length)} on ${result.freeTimes.from}.`,
        extensions: {
          errors: [
            {
              field: "/start",
              code: "invalid_value",
              message: "start is not a free time (taken, or outside the hours or a slot's start); choose one of free_times",
            },
          ],
          free_times: result.freeTimes,
        },
      });
    case "dry_run":
      return {
        kind: "dry_run",
        result: {
          dry_run: true,
          valid: true,
          free: true,
          message: "Everything checks out and the time is free; nothing was booked. Send it again without dry_run to book it.",
        },
      };
    case "booked": {
      const view = bookingView(result.booking);
      const next_steps = `Cal.com sends the invitation to ${view.attendee.work_email}; ${studio} sees the booking${view.lead_id ? " with the brief" : ""}. Cancel with the booking_id if plans change.`;
      return { kind: result.replayed ? "replayed" : "booked", booking: { ...view, next_steps }, counted: result.counted };
    }
  }
}

/**
 * Runs work that calls Cal.com; Cal.com not answering in time, a 429 or a 5xx is `calendar_unavailable` (503), with the
 * Retry-After Cal.com asked for when it said one.
 */
export async function withCalendar<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    const wait = error.retryAfterSeconds;
    return Promise.reject(new Refusal("calendar_unavailable", wait ? { headers: { "Retry-After": String(Math.ceil(wait)) } } : {}));
  }
}
