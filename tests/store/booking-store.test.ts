import { describe, expect, it } from "vitest";
import { BookingStore, newBookingId, type Booking } from "../../src/booking/store.ts";
import { fileLocalStore } from "../support/file-store.ts";

/**
 * The booking store's records (src/booking/store.ts) on the local store: how long a booking and its place are kept,
 * which booking a grant has at a time, and the keys' and free times' lifetimes. Claims are tests/store/records.test.ts's.
 */
const { redis } = await fileLocalStore();
const store = new BookingStore(redis);
const day = 86_400;

const booking = (end: number, extra: Partial<Booking> = {}): Booking => ({
  id: newBookingId(),
  owner: `grant-${crypto.randomUUID()}`,
  provider_uid: "uid-1",
  start: new Date(end - 1_800_000).toISOString(),
  end: new Date(end).toISOString(),
  time_zone: "Europe/London",
  attendee: { full_name: "Ada", work_email: `Ada.${crypto.randomUUID().slice(0, 6)}@Engines.example` },
  status: "booked",
  booked_at: new Date().toISOString(),
  ...extra,
});
/** The seconds left of a booking's record and of its place, each within `seconds` (less the test's own time). */
async function expectKept(b: Booking, seconds: number) {
  for (const key of [`booking:${b.id}`, `booking:at:${b.owner}:${b.start}:${b.attendee.work_email.toLowerCase()}`]) {
    const ttl = await redis.ttl(key);
    expect(ttl, key).toBeGreaterThan(seconds - 10);
    expect(ttl, key).toBeLessThanOrEqual(seconds);
  }
}

describe("a booking", () => {
  it("is kept, with its place, until 30 days after the call; one long over, a minute", async () => {
    const now = Date.now();
    const soon = booking(now + 2 * day * 1000);
    await store.save(soon, now);
    await expectKept(soon, 32 * day);
    const over = booking(now - 40 * day * 1000);
    await store.save(over, now);
    await expectKept(over, 60);
  });

  it("is the grant's at its start, written with any offset, for the person's e-mail in any case, while not cancelled", async () => {
    const b = booking(Date.parse("2050-09-06T16:30:00Z"));
    await store.save(b, Date.now());
    expect(await store.get(b.id)).toEqual(b);
    expect(await store.bookedAt(b.owner, "2050-09-06T17:00:00+01:00", b.attendee.work_email.toUpperCase())).toEqual(b);
    expect(await store.bookedAt(`grant-${crypto.randomUUID()}`, b.start, b.attendee.work_email)).toBeNull();
    expect(await store.bookedAt(b.owner, "2050-09-06T16:30:00Z", b.attendee.work_email)).toBeNull();
    await store.save({ ...b, status: "cancelled" }, Date.now());
    expect(await store.bookedAt(b.owner, b.start, b.attendee.work_email)).toBeNull();
    expect(await store.get(newBookingId())).toBeNull();
  });
});

describe("what is kept for a while", () => {
  it("keeps a key's record 24 hours, pointed or claimed", async () => {
    const owner = `grant-${crypto.randomUUID()}`;
    await store.pointKey(owner, "hash-1", { fingerprint: "f", booking_id: "bk_1" });
    expect(await store.keyRecord(owner, "hash-1")).toEqual({ fingerprint: "f", booking_id: "bk_1" });
    expect(await store.claimKey(owner, "hash-2", { fingerprint: "g", booking_id: "bk_2" })).toBeNull();
    for (const hash of ["hash-1", "hash-2"]) {
      const ttl = await redis.ttl(`booking:idem:${owner}:${hash}`);
      expect(ttl).toBeGreaterThan(day - 60);
      expect(ttl).toBeLessThanOrEqual(day);
    }
  });

  it("keeps Cal.com's free starts of a week a minute, until forgotten", async () => {
    const week = `2050-${crypto.randomUUID().slice(0, 5)}`;
    expect(await store.cachedFreeStarts(week)).toBeNull();
    await store.cacheFreeStarts(week, ["2050-09-06T16:00:00Z"]);
    expect(await store.cachedFreeStarts(week)).toEqual(["2050-09-06T16:00:00Z"]);
    const ttl = await redis.ttl(`booking:free:${week}`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
    await store.forgetFreeStarts(week);
    expect(await store.cachedFreeStarts(week)).toBeNull();
  });

  it("gives the right to book an id, or a very booking, to one request at a time", async () => {
    const id = newBookingId();
    const turn = await store.takeBusy(id, 5_000);
    expect(turn).toBeDefined();
    expect(await store.takeBusy(id, 5_000)).toBeUndefined();
    expect(await store.takeSameBooking("grant-1", id, 5_000)).toBeDefined();
    expect(await store.takeSameBooking("grant-1", id, 5_000)).toBeUndefined();
    expect(await store.takeSameBooking("grant-2", id, 5_000)).toBeDefined();
    await turn!.done();
    expect(await store.takeBusy(id, 5_000)).toBeDefined();
  });
});
