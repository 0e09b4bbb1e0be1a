import { sha256Hex } from "../store/ids.ts";
import type { QuotaResult } from "../limits/limiter.ts";
import { createBooking, findBooking, ProviderUnavailable, SlotTaken, type ProviderBooking } from "./cal-com.ts";
import type { BookingDeps, BookingRequest } from "./deps.ts";
import { claimWaitMs, turnOfSame, turnUnder } from "./key-turns.ts";
import { forgetFreeTimesAt, freeTimes, type FreeTimes } from "./free-times.ts";
import { bookingQuotaExceeded, keyReused, noSuchLead, slotTaken } from "./refusals.ts";
import type { BookingInput } from "./schema.ts";
import { newBookingId, type Booking } from "./store.ts";
import { wallTimeAt } from "./zoned-time.ts";

export type { BookingDeps, BookingRequest } from "./deps.ts";

/** What a booking comes to; every refusal is thrown, named as its condition (src/booking/refusals.ts). */
export type BookingResult = { kind: "dry_run" } | { kind: "booked"; booking: Booking; replayed: boolean; counted?: QuotaResult[] };

/** The same booking, whatever offset its start was written with. */
export const fingerprintOf = (input: BookingInput) =>
  sha256Hex(
    JSON.stringify([input.full_name, input.work_email, new Date(input.start).toISOString(), input.time_zone, input.lead_id ?? null]),
  );

const startOf = (input: BookingInput) => new Date(input.start).toISOString();

/**
 * Books the intro call for the person the grant acts for, its input validated: check the lead is the grant's own, honour
 * an Idempotency-Key, check the time is free (a dry run stops there), count the grant's quota, then book with Cal.com. A
 * time Cal.com refuses is `slot_taken` with fresh free times for the same day; a booking whose answer never came is
 * looked up before anything is tried again, so a person is never booked twice.
 */
export async function bookCall(input: BookingInput, request: BookingRequest, deps: BookingDeps): Promise<BookingResult> {
  const { idempotencyKey } = request;
  if (input.lead_id !== undefined) {
    const lead = await deps.leads.get(input.lead_id);
    if (!lead || lead.owner !== request.owner) throw noSuchLead();
  }

  const now = (deps.now ?? Date.now)();
  if (input.dry_run) {
    // A dry run answers what booking it would: a key used for another booking is refused.
    if (idempotencyKey !== undefined) {
      const record = await deps.store.keyRecord(request.owner, await sha256Hex(idempotencyKey));
      if (record && record.fingerprint !== (await fingerprintOf(input))) throw keyReused();
    }
    const free = await freeAround(input, deps, { fresh: false });
    if (isListed(free, input)) return { kind: "dry_run" };
    // The grant's own booking of this person at that time is what booking it would answer: the same, again.
    const earlier = await deps.store.bookedAt(request.owner, startOf(input), input.work_email);
    if (earlier) return { kind: "booked", booking: earlier, replayed: true };
    throw slotTaken(free);
  }

  const print = await fingerprintOf(input);
  let id = newBookingId();
  let claimed: { keyHash: string } | undefined;
  let working: { done(): Promise<void> } | undefined;
  if (idempotencyKey !== undefined) {
    const keyHash = await sha256Hex(idempotencyKey);
    // The right to book under the id is taken before the key is claimed, so a retry that finds the claim always finds
    // this request at work, and waits its turn.
    working = await deps.store.takeBusy(id, claimWaitMs(deps));
    const claim = await deps.store.claimKey(request.owner, keyHash, { fingerprint: print, booking_id: id });
    if (claim) {
      await working?.done();
      if (claim.fingerprint !== print) throw keyReused();
      // Another request claimed the key: its booking, once it has one; if it ended without one (Cal.com did not
      // answer, or it died), this request takes its turn under the same id, after a look-up, so that Cal.com's one
      // booking of that id answers every retry.
      id = claim.booking_id;
      const turn = await turnUnder(id, deps);
      if ("booking" in turn) return { kind: "booked", booking: turn.booking, replayed: true };
      working = turn.working;
    }
    claimed = { keyHash };
  }
  // Retries of the same key wait for this request while it books (released however it ends).
  try {
    // The same booking sent again while it is made, under any key or none (a retry whose answer was lost, a double
    // click), waits for it and is answered with it: it counts nothing and never meets its own booking as a taken time.
    const same = await turnOfSame(request.owner, print, { start: startOf(input), workEmail: input.work_email }, deps);
    if ("booking" in same) {
      // Made under another key: this request's key stands for that booking from now on, as the other key does.
      if (claimed) await deps.store.pointKey(request.owner, claimed.keyHash, { fingerprint: print, booking_id: same.booking.id });
      return { kind: "booked", booking: same.booking, replayed: true };
    }
    try {
      return await bookUnder(id, input, request, deps, now, claimed);
    } finally {
      await same.working.done();
    }
  } finally {
    await working?.done();
  }
}

/** Books `input` under `id`, the request's claimed key (if any) given back when nothing is booked. */
async function bookUnder(
  id: string,
  input: BookingInput,
  request: BookingRequest,
  deps: BookingDeps,
  now: number,
  claimed: { keyHash: string } | undefined,
): Promise<BookingResult> {
  // What a request that booked nothing gives back: a key it claimed, so the key can book another time.
  const nothingBooked = async () => {
    if (claimed) await deps.store.releaseKey(request.owner, claimed.keyHash, id);
  };

  // A start that is not free is refused without calling Cal.com or counting, unless it is the grant's own booking of
  // this person at that time (a retry without a key whose first answer was lost).
  const free = await freeAround(input, deps, { fresh: false });
  if (!isListed(free, input)) {
    const earlier = await deps.store.bookedAt(request.owner, startOf(input), input.work_email);
    if (earlier) return { kind: "booked", booking: earlier, replayed: true };
    await nothingBooked();
    throw slotTaken(free);
  }

  // The quotas count bookings made: what is counted here is given back unless this request makes one.
  const counted = await deps.limiter.consumeGrant("bookings-per-grant", request.owner, "bookings-per-address", request.address);
  let booked = false;
  try {
    const refused = counted.find((quota) => !quota.allowed);
    if (refused) {
      await nothingBooked();
      throw bookingQuotaExceeded(refused);
    }
    let made: ProviderBooking;
    try {
      made = await bookWithCal(input, deps, id);
    } catch (error) {
      if (!(error instanceof SlotTaken)) throw error;
      // Refused: another request of the same key may have booked it under this id a moment ago.
      const mine = await findBooking(deps.cal, { start: startOf(input), attendeeEmail: input.work_email });
      if (mine?.ours !== id) {
        await nothingBooked();
        throw await takenNow(input, deps);
      }
      made = mine;
    }
    // The person's booking at that time, made by another request: the grant's own earlier one is answered again (a
    // retry without a key), never given a second id; anyone else's means the time is taken.
    if (made.ours !== id) {
      const earlier = await ourBooking(made, request.owner, deps);
      if (earlier) return { kind: "booked", booking: earlier, replayed: true };
      await nothingBooked();
      throw await takenNow(input, deps);
    }
    const existing = await deps.store.get(id);
    if (existing) return { kind: "booked", booking: existing, replayed: true };
    const booking = await recordBooking(id, made, input, request.owner, deps, now);
    booked = true;
    return { kind: "booked", booking, replayed: false, counted };
  } finally {
    if (!booked) await deps.limiter.refundGrant(counted);
  }
}

/** Records a booking Cal.com made: ours, its place at its start for the grant, its day's free times renewed, the notice. */
async function recordBooking(
  id: string,
  made: ProviderBooking,
  input: BookingInput,
  owner: string,
  deps: BookingDeps,
  now: number,
): Promise<Booking> {
  const booking: Booking = {
    id,
    owner,
    provider_uid: made.uid,
    start: new Date(made.start).toISOString(),
    end: new Date(made.end).toISOString(),
    time_zone: input.time_zone,
    attendee: { full_name: input.full_name, work_email: input.work_email },
    ...(input.lead_id ? { lead_id: input.lead_id } : {}),
    status: "booked",
    booked_at: new Date(now).toISOString(),
  };
  await deps.store.save(booking, now);
  await forgetFreeTimesAt(Date.parse(booking.start), deps);
  // The studio's e-mail about the brief is followed by one saying the call was booked (after it, in its thread).
  if (booking.lead_id)
    await deps.leads.saveCallNotice({
      booking_id: booking.id,
      lead_id: booking.lead_id,
      created_at: booking.booked_at,
      start: booking.start,
      end: booking.end,
      time_zone: booking.time_zone,
      studio_time_zone: deps.studioTimeZone,
      delivery: { state: "pending", attempts: 0 },
    });
  return booking;
}

/**
 * One booking with Cal.com, never two: an attendee's booking at that start is looked up first (a retry of a booking
 * whose answer was lost), and again when the booking call itself gets no answer.
 */
async function bookWithCal(input: BookingInput, deps: BookingDeps, id: string): Promise<ProviderBooking> {
  const start = startOf(input);
  const lookup = () => findBooking(deps.cal, { start, attendeeEmail: input.work_email });
  const existing = await lookup();
  if (existing) return existing;
  try {
    return await createBooking(deps.cal, {
      start,
      attendee: { name: input.full_name, email: input.work_email, timeZone: input.time_zone },
      metadata: { frontdoor_booking: id, ...(input.lead_id ? { lead_id: input.lead_id } : {}) },
    });
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    // The booking may have been made before the answer was lost: only a look-up tells.
    const made = await lookup().catch(() => undefined);
    if (made) return made;
    throw error;
  }
}

/** Whether the start is among the free times of its day, as Cal.com last gave them (kept a minute). */
const isListed = (free: FreeTimes, input: BookingInput) => free.times.some((t) => Date.parse(t.start) === Date.parse(input.start));

/** Cal.com itself refused the time, so the kept free times were stale: the refusal comes with the day's asked again. */
const takenNow = async (input: BookingInput, deps: BookingDeps) => slotTaken(await freeAround(input, deps, { fresh: true }));

/** This grant's booking, when Cal.com's booking carries the id of one. */
async function ourBooking(made: ProviderBooking | undefined, owner: string, deps: BookingDeps): Promise<Booking | undefined> {
  const earlier = made?.ours ? await deps.store.get(made.ours) : null;
  return earlier && earlier.owner === owner ? earlier : undefined;
}

/** Free times on the booking's day in the person's time zone, for a refusal that offers others. */
function freeAround(input: BookingInput, deps: BookingDeps, { fresh }: { fresh: boolean }): Promise<FreeTimes> {
  const day = wallTimeAt(new Date(input.start), input.time_zone).date;
  return freeTimes({ from: day, to: day, time_zone: input.time_zone }, deps, { fresh });
}
