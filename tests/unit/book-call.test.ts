import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { calStandInHandler } from "../../scripts/local-calcom/standin.ts";
import { bookCall, fingerprintOf, type BookingDeps } from "../../src/booking/book.ts";
import { ProviderUnavailable } from "../../src/booking/cal-com.ts";
import { bookingUnderKey, bookingView, cancelOwnBooking, ownBooking } from "../../src/booking/own.ts";
import { bookingSchema, type BookingInput } from "../../src/booking/schema.ts";
import { BookingStore, newBookingId } from "../../src/booking/store.ts";
import { formatInZone } from "../../src/booking/zoned-time.ts";
import { newLeadId } from "../../src/briefs/lead.ts";
import { callNoticeKey, LeadStore } from "../../src/briefs/store.ts";
import type { Refusal } from "../../src/http/refusal.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { sha256Hex } from "../../src/store/ids.ts";
import { freshBrief } from "../support/briefs.ts";
import { fileLocalStore } from "../support/file-store.ts";
import { patience, testLimit } from "../support/patience.ts";

/**
 * bookCall (src/booking/book.ts) on an injected clock, over the local store and the Cal.com stand-in in-process: the
 * booking it records, the notice it owes the studio, a dry run's answers, and the refusals only a unit can reach.
 * tests/doors/booking.test.ts books over REST, with the races and outages.
 */
const { redis } = await fileLocalStore();

// A Monday, 08:00 in Los Angeles; the studio's hours are 09:00 to 17:00 there.
const clock = Date.parse("2050-09-05T15:00:00Z");
const hours = {
  time_zone: "America/Los_Angeles",
  days: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  opens: "09:00",
  closes: "17:00",
};

let standIn: ReturnType<typeof calStandInHandler>;
let deps: BookingDeps;
beforeEach(() => {
  standIn = calStandInHandler({
    eventTypeId: 1,
    lengthMinutes: 30,
    hours: hours as never,
    apiKey: "cal_key",
    now: () => new Date(clock),
    // A "timeout" holds its answer past any wait here: the test that means Cal.com's deadline to be reached sets a short one.
    timeoutMs: testLimit,
  });
  deps = {
    cal: {
      apiUrl: "http://cal.test",
      eventTypeId: 1,
      apiKey: "cal_key",
      timeoutMs: patience,
      // The stand-in in-process, given up when the call's signal is.
      fetch: (input, init) =>
        new Promise<Response>((resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
          standIn.handler(new Request(input, init)).then(resolve, reject);
        }),
    },
    store: new BookingStore(redis),
    leads: new LeadStore(redis),
    limiter: upstashLimiter(redis, { cacheBlocked: false, timeoutMs: patience }),
    lengthMinutes: 30,
    studioTimeZone: "America/Los_Angeles",
    now: () => clock,
  };
});
afterEach(() => standIn.release());

/** A request of a grant of its own, from an address of its own (one in 250 drawn at random was another test's at times). */
let addresses = 0;
const request = () => ({ owner: `grant-${crypto.randomUUID()}`, address: `203.0.113.${++addresses}` });
let slot = 0;
/** A free start of Tuesday to Friday that week, each test its own, written in London's offset. */
const start = () => {
  const at = Date.parse("2050-09-06T16:00:00Z") + (slot % 16) * 30 * 60_000 + Math.floor(slot / 16) * 86_400_000;
  slot += 1;
  return new Date(at + 3_600_000).toISOString().replace("Z", "+01:00").replace(".000", "");
};
/** A lead of the grant's, recorded as the brief pipeline records one. */
const fileLead = (id: string, req: { owner: string; address: string }) =>
  deps.leads.insert(
    {
      id,
      received_at: new Date(clock).toISOString(),
      channel: "rest",
      client_id: "c",
      ...req,
      brief: freshBrief() as never,
      delivery: { state: "pending", attempts: 0 },
    },
    1000,
  );
const input = (extra: Partial<BookingInput> = {}): BookingInput => ({
  full_name: "Ada Lovelace",
  work_email: `Ada.${crypto.randomUUID().slice(0, 8)}@engines.example`,
  start: start(),
  time_zone: "Europe/London",
  ...extra,
});

describe("a booking", () => {
  it("records our booking of Cal.com's, at its place for the grant, and counts it", async () => {
    const req = request();
    const asked = input();
    const result = await bookCall(asked, req, deps);
    if (result.kind !== "booked") throw new Error(result.kind);
    const [made] = standIn.bookings();
    const utc = new Date(asked.start).toISOString();
    const booking = {
      id: result.booking.id,
      owner: req.owner,
      provider_uid: made!.uid,
      start: utc,
      end: new Date(Date.parse(utc) + 30 * 60_000).toISOString(),
      time_zone: "Europe/London",
      attendee: { full_name: "Ada Lovelace", work_email: asked.work_email },
      status: "booked",
      booked_at: new Date(clock).toISOString(),
    };
    expect(result).toEqual({
      kind: "booked",
      booking,
      replayed: false,
      counted: [
        expect.objectContaining({ policy: "bookings-per-grant", remaining: 2 }),
        expect.objectContaining({ policy: "bookings-per-address" }),
      ],
    });
    expect(result.booking.id).toMatch(/^bk_[0-9a-z]{20}$/);
    expect(await deps.store.get(booking.id)).toEqual(booking);
    expect(await deps.store.bookedAt(req.owner, asked.start, asked.work_email.toUpperCase())).toEqual(booking);
    expect(made).toMatchObject({
      start: utc,
      metadata: { frontdoor_booking: booking.id },
      attendee: { name: "Ada Lovelace", email: asked.work_email, timeZone: "Europe/London" },
    });
    expect(await deps.leads.getCallNotice(callNoticeKey(booking.id))).toBeNull();
  });

  it("owes the studio a notice of a call booked for the grant's own brief, and tells Cal.com the lead", async () => {
    const req = request();
    const lead_id = newLeadId();
    await fileLead(lead_id, req);
    const result = await bookCall(input({ lead_id }), req, deps);
    if (result.kind !== "booked") throw new Error(result.kind);
    const { booking } = result;
    expect(booking.lead_id).toBe(lead_id);
    expect(standIn.bookings()[0]!.metadata).toEqual({ frontdoor_booking: booking.id, lead_id });
    expect(await deps.leads.getCallNotice(callNoticeKey(booking.id))).toEqual({
      booking_id: booking.id,
      lead_id,
      created_at: booking.booked_at,
      start: booking.start,
      end: booking.end,
      time_zone: "Europe/London",
      studio_time_zone: "America/Los_Angeles",
      delivery: { state: "pending", attempts: 0 },
    });
    // Another grant's brief, and none at all, are the same refusal.
    const refused = { condition: "invalid_booking", options: { extensions: { errors: [{ field: "/lead_id", code: "invalid_value" }] } } };
    await expect(bookCall(input({ lead_id }), request(), deps)).rejects.toMatchObject(refused);
    await expect(bookCall(input({ lead_id: newLeadId() }), req, deps)).rejects.toMatchObject(refused);
    expect(standIn.bookings()).toHaveLength(1);
  });
});

describe("a dry run", () => {
  it("answers a free time, books nothing and counts nothing", async () => {
    const req = request();
    const asked = input();
    expect(await bookCall({ ...asked, dry_run: true }, req, deps)).toEqual({ kind: "dry_run" });
    expect(standIn.bookings()).toEqual([]);
    const booked = await bookCall(asked, req, deps);
    expect(booked).toMatchObject({ counted: [{ policy: "bookings-per-grant", remaining: 2 }, {}] });
  });

  it("answers the grant's own booking at that time with it, and anyone else's as a taken time", async () => {
    const req = request();
    const asked = input();
    const booked = await bookCall(asked, req, deps);
    // The same booking, its start written in UTC: the kept free times no longer list it.
    const again = { ...asked, start: new Date(asked.start).toISOString(), dry_run: true };
    expect(await bookCall(again, req, deps)).toEqual({ ...booked, counted: undefined, replayed: true });
    const taken = bookCall({ ...asked, dry_run: true }, request(), deps);
    await expect(taken).rejects.toMatchObject({
      condition: "slot_taken",
      options: { extensions: { free_times: { time_zone: "Europe/London", from: asked.start.slice(0, 10), to: asked.start.slice(0, 10) } } },
    });
  });

  it("refuses a key the grant used for another booking, and takes it for the same one", async () => {
    const req = request();
    const asked = input();
    const key = crypto.randomUUID();
    await bookCall(asked, { ...req, idempotencyKey: key }, deps);
    const other = bookCall({ ...input(), dry_run: true }, { ...req, idempotencyKey: key }, deps);
    await expect(other).rejects.toMatchObject({ condition: "idempotency_key_reused" });
    const same = { ...asked, start: new Date(asked.start).toISOString(), dry_run: true };
    expect(await bookCall(same, { ...req, idempotencyKey: key }, deps)).toMatchObject({ kind: "booked", replayed: true });
    // A key nobody used is no refusal.
    expect(await bookCall({ ...input(), dry_run: true }, { ...req, idempotencyKey: crypto.randomUUID() }, deps)).toEqual({
      kind: "dry_run",
    });
  });
});

describe("a booking refused", () => {
  const grantLeft = async (req: ReturnType<typeof request>) => {
    const result = await bookCall(input(), req, deps);
    return result.kind === "booked" ? result.counted?.map((q) => q.remaining) : undefined;
  };

  it("past the grant's quota gives its key back and counts nothing against the address", async () => {
    const req = request();
    for (let i = 0; i < 3; i++) await bookCall(input(), req, deps);
    const key = crypto.randomUUID();
    const refused = bookCall(input(), { ...req, idempotencyKey: key }, deps);
    await expect(refused).rejects.toMatchObject({
      condition: "booking_quota_exceeded",
      options: { headers: { "Retry-After": expect.any(String) } },
    });
    expect(await deps.store.keyRecord(req.owner, await sha256Hex(key))).toBeNull();
    // The address's fourth booking, by another grant: the refused one counted nothing.
    expect(await grantLeft({ ...request(), address: req.address })).toEqual([2, 26]);
    expect(standIn.bookings()).toHaveLength(4);
  });

  it("by Cal.com, the kept free times being stale, comes with the day's asked again, and counts nothing", async () => {
    const req = request();
    const asked = input();
    await bookCall({ ...asked, dry_run: true }, req, deps);
    // Someone books the time on Cal.com's own page.
    const direct = {
      start: new Date(asked.start).toISOString(),
      eventTypeId: 1,
      attendee: { name: "B", email: "b@else.example", timeZone: "UTC" },
    };
    const made = await standIn.handler(
      new Request("http://cal.test/v2/bookings", {
        method: "POST",
        headers: { "content-type": "application/json", "cal-api-version": "2026-02-25" },
        body: JSON.stringify(direct),
      }),
    );
    expect(made.status).toBe(201);
    const key = crypto.randomUUID();
    const refusal = (await bookCall(asked, { ...req, idempotencyKey: key }, deps).catch((error: unknown) => error)) as Refusal;
    expect(refusal).toMatchObject({ condition: "slot_taken" });
    const { free_times } = refusal.options.extensions as { free_times: { times: { start: string }[] } };
    expect(free_times.times.length).toBeGreaterThan(0);
    expect(free_times.times.map((t) => Date.parse(t.start))).not.toContain(Date.parse(asked.start));
    expect(await deps.store.keyRecord(req.owner, await sha256Hex(key))).toBeNull();
    expect(await grantLeft(req)).toEqual([2, expect.any(Number)]);
  });

  it("by an outage whose look-up finds nothing is the outage, and counts nothing", async () => {
    const req = request();
    // Cal.com's deadline reached: the call is held past it. (A look-up that met the deadline too would be the same outage.)
    deps.cal.timeoutMs = 200;
    standIn.fail("timeout");
    await expect(bookCall(input(), req, deps)).rejects.toBeInstanceOf(ProviderUnavailable);
    expect(standIn.bookings()).toEqual([]);
    expect(await grantLeft(req)).toEqual([2, expect.any(Number)]);
  });
});

describe("the grant's booking", () => {
  const booked = async (req = request(), extra: Partial<BookingInput> = {}) => {
    const result = await bookCall(input(extra), req, deps);
    if (result.kind !== "booked") throw new Error(result.kind);
    return result.booking;
  };

  it("is shown in the person's time zone, without Cal.com's uid or the owner", async () => {
    const booking = await booked();
    expect(bookingView(booking)).toEqual({
      booking_id: booking.id,
      status: "booked",
      start: formatInZone(new Date(booking.start), "Europe/London"),
      end: formatInZone(new Date(booking.end), "Europe/London"),
      time_zone: "Europe/London",
      attendee: booking.attendee,
      booked_at: booking.booked_at,
    });
    expect(bookingView({ ...booking, lead_id: "lead_1", cancelled_at: "2050-09-05T16:00:00.000Z" })).toMatchObject({
      lead_id: "lead_1",
      cancelled_at: "2050-09-05T16:00:00.000Z",
    });
  });

  it("is the grant's own only, by its id or the key that made it (for that booking, with a fingerprint)", async () => {
    const req = { ...request(), idempotencyKey: crypto.randomUUID() };
    const booking = await booked(req);
    expect(await ownBooking(booking.id, req.owner, deps)).toEqual(booking);
    expect(await ownBooking(booking.id, request().owner, deps)).toBeUndefined();
    expect(await ownBooking("bk_not-an-id", req.owner, deps)).toBeUndefined();
    const print = (await deps.store.keyRecord(req.owner, await sha256Hex(req.idempotencyKey)))!.fingerprint;
    expect(await bookingUnderKey(req.owner, req.idempotencyKey, deps)).toEqual(booking);
    expect(await bookingUnderKey(req.owner, req.idempotencyKey, deps, print)).toEqual(booking);
    expect(await bookingUnderKey(req.owner, req.idempotencyKey, deps, "another booking")).toBeUndefined();
    expect(await bookingUnderKey(req.owner, crypto.randomUUID(), deps)).toBeUndefined();
    expect(await bookingUnderKey(request().owner, req.idempotencyKey, deps)).toBeUndefined();
  });

  it("is cancelled with Cal.com once, its time free again, and its notice says so", async () => {
    const req = request();
    const lead_id = newLeadId();
    await fileLead(lead_id, req);
    const booking = await booked(req, { lead_id });
    expect(await cancelOwnBooking(booking.id, request().owner, deps)).toBeUndefined();
    const cancelled = { ...booking, status: "cancelled", cancelled_at: new Date(clock).toISOString() };
    expect(await cancelOwnBooking(booking.id, req.owner, deps)).toEqual(cancelled);
    expect(await deps.store.get(booking.id)).toEqual(cancelled);
    expect(await deps.store.bookedAt(req.owner, booking.start, booking.attendee.work_email)).toBeNull();
    expect(standIn.bookings()[0]).toMatchObject({ status: "cancelled", cancellationReason: "Cancelled by the person's agent." });
    expect(await deps.leads.getCallNotice(callNoticeKey(booking.id))).toMatchObject({ cancelled_at: cancelled.cancelled_at });
    // The time is free again, at once.
    expect(await bookCall({ ...input(), start: booking.start, dry_run: true }, request(), deps)).toEqual({ kind: "dry_run" });
    const calls = standIn.requests().length;
    expect(await cancelOwnBooking(booking.id, req.owner, deps)).toEqual(cancelled);
    expect(standIn.requests()).toHaveLength(calls);
  });
});

describe("the same booking in the making", () => {
  it("is waited for about twice Cal.com's timeout, then answered as an outage, booking nothing", async () => {
    const req = request();
    const asked = input();
    deps.cal.timeoutMs = 300;
    const held = await deps.store.takeSameBooking(req.owner, await fingerprintOf(asked), 10_000);
    // The wait reads Date.now: on the test's clock, each look at the held turn takes 400 ms, and nothing else passes.
    const start = Date.now();
    let elapsed = 0;
    const take = deps.store.takeSameBooking.bind(deps.store);
    deps.store.takeSameBooking = async (...args) => {
      elapsed += 400;
      return take(...args);
    };
    const testClock = vi.spyOn(Date, "now").mockImplementation(() => start + elapsed);
    const waited = await bookCall(asked, req, deps)
      .catch((error: unknown) => error)
      .finally(() => testClock.mockRestore());
    await held!.done();
    expect(waited).toEqual(new ProviderUnavailable("another request of the same booking is still booking"));
    expect(waited).toBeInstanceOf(ProviderUnavailable);
    // Twice the timeout and a second: the fourth look is the first at 1,600 ms, and the last.
    expect(elapsed).toBe(1_600);
    expect(standIn.bookings()).toEqual([]);
  });
});

describe("one booking, never two", () => {
  const posts = () => standIn.requests().filter((r) => r.method === "POST" && r.path === "/v2/bookings").length;
  /** Books `asked` on Cal.com's own page, as another attendee (or the same one), with `metadata`. */
  async function bookDirectly(asked: BookingInput, email: string, metadata: Record<string, string> = {}) {
    const body = {
      start: new Date(asked.start).toISOString(),
      eventTypeId: 1,
      attendee: { name: "Ada", email, timeZone: "UTC" },
      metadata,
    };
    const headers = { "content-type": "application/json", "cal-api-version": "2026-02-25" };
    const res = await standIn.handler(new Request("http://cal.test/v2/bookings", { method: "POST", headers, body: JSON.stringify(body) }));
    expect(res.status).toBe(201);
  }

  it("is the same whatever offset its start is written with, and another with another lead", async () => {
    const asked = input({ lead_id: newLeadId() });
    const print = await fingerprintOf(asked);
    expect(await fingerprintOf({ ...asked, start: new Date(asked.start).toISOString() })).toBe(print);
    expect(await fingerprintOf({ ...asked, lead_id: newLeadId() })).not.toBe(print);
    expect(await fingerprintOf({ ...asked, lead_id: undefined })).not.toBe(print);
  });

  it("refuses a time it knows is taken without asking Cal.com to book it, and asks Cal.com for free times once a minute", async () => {
    const asked = input();
    await bookCall({ ...asked, dry_run: true }, request(), deps);
    const slots = () => standIn.requests().filter((r) => r.path === "/v2/slots").length;
    const asking = slots();
    await bookCall({ ...asked, dry_run: true }, request(), deps);
    expect(slots()).toBe(asking);
    await bookCall(asked, request(), deps);
    const someoneElse = { ...asked, work_email: `grace.${crypto.randomUUID().slice(0, 8)}@engines.example` };
    await expect(bookCall(someoneElse, request(), deps)).rejects.toMatchObject({ condition: "slot_taken" });
    expect(posts()).toBe(1);
  });

  it("never answers with another grant's booking of the same person at that time", async () => {
    const asked = input();
    await bookCall({ ...asked, dry_run: true }, request(), deps);
    // Another grant's booking of this person at this time, which the kept free times do not know of yet.
    const theirs = { id: newBookingId(), owner: request().owner, provider_uid: "uid-x", start: new Date(asked.start).toISOString() };
    await bookDirectly(asked, asked.work_email, { frontdoor_booking: theirs.id });
    const end = new Date(Date.parse(theirs.start) + 30 * 60_000).toISOString();
    const attendee = { full_name: asked.full_name, work_email: asked.work_email };
    await deps.store.save(
      { ...theirs, end, time_zone: "UTC", attendee, status: "booked", booked_at: new Date(clock).toISOString() },
      clock,
    );
    await expect(bookCall(asked, request(), deps)).rejects.toMatchObject({ condition: "slot_taken" });
  });

  it("gives a key answered with another key's booking that booking from then on", async () => {
    const req = request();
    const asked = input();
    const first = await bookCall(asked, { ...req, idempotencyKey: crypto.randomUUID() }, deps);
    const second = crypto.randomUUID();
    const again = await bookCall(asked, { ...req, idempotencyKey: second }, deps);
    expect(again).toEqual({ kind: "booked", booking: (first as { booking: unknown }).booking, replayed: true });
    expect(await bookingUnderKey(req.owner, second, deps)).toEqual(again.kind === "booked" && again.booking);
  });

  it("books the same booking again at once after an outage: its turn is given back", async () => {
    const req = request();
    const asked = input();
    standIn.fail("503");
    await expect(bookCall(asked, req, deps)).rejects.toBeInstanceOf(ProviderUnavailable);
    // At once: its first look finds the turn free, so it never waits for it.
    const looks: boolean[] = [];
    const take = deps.store.takeSameBooking.bind(deps.store);
    deps.store.takeSameBooking = async (...args) => {
      const turn = await take(...args);
      looks.push(turn !== undefined);
      return turn;
    };
    expect(await bookCall(asked, req, deps)).toMatchObject({ kind: "booked", replayed: false });
    expect(looks).toEqual([true]);
  });

  it("refuses a time Cal.com has for the same attendee under no booking of ours, counting nothing", async () => {
    const req = request();
    const asked = input();
    await bookCall({ ...asked, dry_run: true }, req, deps);
    await bookDirectly(asked, asked.work_email);
    const key = crypto.randomUUID();
    await expect(bookCall(asked, { ...req, idempotencyKey: key }, deps)).rejects.toMatchObject({ condition: "slot_taken" });
    expect(posts()).toBe(1);
    expect(await deps.store.keyRecord(req.owner, await sha256Hex(key))).toBeNull();
    const left = await bookCall(input(), req, deps);
    expect(left).toMatchObject({ counted: [{ policy: "bookings-per-grant", remaining: 2 }, {}] });
  });

  it("records the booking Cal.com made for a key's first request, which died, without booking again", async () => {
    const req = request();
    const asked = input();
    const key = crypto.randomUUID();
    const id = newBookingId();
    await bookCall({ ...asked, dry_run: true }, req, deps);
    // The first request claimed the key, and Cal.com booked under its id; it died before recording the booking.
    await deps.store.claimKey(req.owner, await sha256Hex(key), { fingerprint: await fingerprintOf(asked), booking_id: id });
    await bookDirectly(asked, asked.work_email, { frontdoor_booking: id });
    const result = await bookCall(asked, { ...req, idempotencyKey: key }, deps);
    expect(result).toMatchObject({ kind: "booked", replayed: false, booking: { id, provider_uid: standIn.bookings()[0]!.uid } });
    expect(posts()).toBe(1);
  });
});

describe("the booking's start", () => {
  const startOf = (ms: number) => bookingSchema.shape.start.safeParse(new Date(Date.now() + ms).toISOString()).success;
  it("is within the next 60 days, as free times lists them, a day's slack for the zones", () => {
    expect([startOf(-60_000), startOf(60_000), startOf(60.9 * 86_400_000), startOf(61.1 * 86_400_000)]).toEqual([false, true, true, false]);
  });
});
