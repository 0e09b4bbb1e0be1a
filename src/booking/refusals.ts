import { Refusal } from "../http/refusal.ts";
import { quotaHeaders } from "../limits/headers.ts";
import type { QuotaResult } from "../limits/limiter.ts";
import { ProviderUnavailable } from "./cal-com.ts";
import type { FreeTimes } from "./free-times.ts";

/** The refusals only booking makes, each with what it brings (fresh free times, the quota's headers). */

const freeCount = (n: number) => (n === 0 ? "No other time is free" : n === 1 ? "One other time is free" : `${n} other times are free`);

export const slotTaken = (free: FreeTimes) =>
  new Refusal("slot_taken", {
    detail: `That start is not a free time. ${freeCount(free.times.length)} on ${free.from}.`,
    extensions: {
      errors: [
        {
          field: "/start",
          code: "invalid_value",
          message: "start is not a free time (taken, or outside the hours or a slot's start); choose one of free_times",
        },
      ],
      free_times: free,
    },
  });

export const bookingQuotaExceeded = (quota: QuotaResult) =>
  new Refusal("booking_quota_exceeded", {
    detail: `${quota.policy === "bookings-per-address" ? "Bookings from this address, every grant together, have reached" : "This grant has booked"} its ${quota.limit} calls for now; retry in ${Math.max(1, quota.resetSeconds)} seconds.`,
    headers: quotaHeaders(quota),
  });

export const keyReused = () =>
  new Refusal("idempotency_key_reused", {
    detail: "The Idempotency-Key was already used in the last 24 hours with a different booking.",
  });

/** Another grant's brief and no brief at all are the same answer: nothing says which lead ids exist. */
export const noSuchLead = () =>
  new Refusal("invalid_booking", {
    detail: "1 field is missing or invalid: lead_id names no brief this grant filed.",
    extensions: { errors: [{ field: "/lead_id", code: "invalid_value", message: "lead_id names no brief this grant filed" }] },
  });

/** Another grant's booking and none at all are the same answer. */
export const noSuchBooking = () =>
  new Refusal("not_found", { detail: "This grant has no booking of that id.", resolution: "Use a booking_id your own booking returned." });

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
    throw new Refusal("calendar_unavailable", wait ? { headers: { "Retry-After": String(Math.ceil(wait)) } } : {});
  }
}
