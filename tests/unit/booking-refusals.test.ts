import { describe, expect, it } from "vitest";
import { ProviderUnavailable } from "../../src/booking/cal-com.ts";
import { bookingQuotaExceeded, keyReused, noSuchBooking, noSuchLead, slotTaken, withCalendar } from "../../src/booking/refusals.ts";
import { briefQuotaExceeded } from "../../src/briefs/refusals.ts";
import type { QuotaResult } from "../../src/limits/limiter.ts";

/** The words of the refusals only the write pipelines make (src/booking/refusals.ts, src/briefs/refusals.ts), and Cal.com's outage as one. */
const free = (n: number) => ({
  time_zone: "Europe/London",
  from: "2050-09-06",
  to: "2050-09-06",
  duration_minutes: 30,
  times: Array.from({ length: n }, (_, i) => ({ start: `2050-09-06T1${i}:00:00+01:00`, end: `2050-09-06T1${i}:30:00+01:00` })),
});
const quota = (policy: QuotaResult["policy"], resetSeconds: number): QuotaResult => ({
  policy,
  allowed: false,
  limit: 3,
  remaining: 0,
  resetSeconds,
  window: `rl:${policy}:x:1`,
});

describe("slot_taken", () => {
  it.each([
    [0, "No other time is free on 2050-09-06."],
    [1, "One other time is free on 2050-09-06."],
    [2, "2 other times are free on 2050-09-06."],
  ])("with %i free times says so, names /start and brings them", (n, words) => {
    const refusal = slotTaken(free(n));
    expect(refusal.condition).toBe("slot_taken");
    expect(refusal.options.detail).toBe(`That start is not a free time. ${words}`);
    expect(refusal.options.extensions).toEqual({
      errors: [
        {
          field: "/start",
          code: "invalid_value",
          message: "start is not a free time (taken, or outside the hours or a slot's start); choose one of free_times",
        },
      ],
      free_times: free(n),
    });
  });
});

describe("the booking's other refusals", () => {
  it("say what was wrong, the same whoever's lead or booking it was", () => {
    expect([keyReused().condition, keyReused().options.detail]).toEqual([
      "idempotency_key_reused",
      "The Idempotency-Key was already used in the last 24 hours with a different booking.",
    ]);
    expect(noSuchLead().options).toEqual({
      detail: "1 field is missing or invalid: lead_id names no brief this grant filed.",
      extensions: { errors: [{ field: "/lead_id", code: "invalid_value", message: "lead_id names no brief this grant filed" }] },
    });
    expect([noSuchBooking().condition, noSuchBooking().options]).toEqual([
      "not_found",
      { detail: "This grant has no booking of that id.", resolution: "Use a booking_id your own booking returned." },
    ]);
  });
});

describe("a quota of the writes", () => {
  it("names the grant's quota or its address's ceiling, and a wait of at least a second", () => {
    const grant = bookingQuotaExceeded(quota("bookings-per-grant", 42));
    expect([grant.condition, grant.options.detail]).toEqual([
      "booking_quota_exceeded",
      "This grant has booked its 3 calls for now; retry in 42 seconds.",
    ]);
    expect(grant.options.headers).toMatchObject({ "Retry-After": expect.any(String) });
    expect(bookingQuotaExceeded(quota("bookings-per-address", 0)).options.detail).toBe(
      "Bookings from this address, every grant together, have reached its 3 calls for now; retry in 1 seconds.",
    );
    expect(briefQuotaExceeded(quota("briefs-per-grant", 7)).options.detail).toBe(
      "This grant has filed its 3 briefs for now; retry in 7 seconds.",
    );
    expect(briefQuotaExceeded(quota("briefs-per-address", -3)).options.detail).toBe(
      "Briefs from this address, every grant together, have reached its 3 briefs for now; retry in 1 seconds.",
    );
  });
});

describe("Cal.com's outage", () => {
  it("is calendar_unavailable, with the whole seconds Cal.com asked to wait when it said", async () => {
    const refused = (wait?: number) =>
      withCalendar(() => Promise.reject(new ProviderUnavailable("down", wait))).catch((error: unknown) => error);
    expect(await refused(2.1)).toMatchObject({ condition: "calendar_unavailable", options: { headers: { "Retry-After": "3" } } });
    expect(await refused()).toMatchObject({ condition: "calendar_unavailable", options: {} });
    expect(((await refused()) as { options: object }).options).toEqual({});
  });

  it("passes on the work's answer, and any other failure as it is", async () => {
    expect(await withCalendar(async () => "free")).toBe("free");
    const other = new Error("a bug");
    await expect(withCalendar(() => Promise.reject(other))).rejects.toBe(other);
  });
});
