import { sha256Hex } from "../store/ids.ts";
import { cancelBooking } from "./cal-com.ts";
import type { BookingDeps } from "./deps.ts";
import { forgetFreeTimesAt } from "./free-times.ts";
import { bookingIdPattern, type Booking } from "./store.ts";
import { formatInZone } from "./zoned-time.ts";

/** A booking as its grant sees it: ours, without Cal.com's identifiers, its times in the person's time zone. */
export function bookingView(booking: Booking) {
  return {
    booking_id: booking.id,
    status: booking.status,
    start: formatInZone(new Date(booking.start), booking.time_zone),
    end: formatInZone(new Date(booking.end), booking.time_zone),
    time_zone: booking.time_zone,
    attendee: booking.attendee,
    ...(booking.lead_id ? { lead_id: booking.lead_id } : {}),
    booked_at: booking.booked_at,
    ...(booking.cancelled_at ? { cancelled_at: booking.cancelled_at } : {}),
  };
}

/** The grant's own booking; another grant's and none at all are the same answer. */
export async function ownBooking(id: string, owner: string, deps: Pick<BookingDeps, "store">): Promise<Booking | undefined> {
  if (!bookingIdPattern.test(id)) return undefined;
  const booking = await deps.store.get(id);
  return booking && booking.owner === owner ? booking : undefined;
}

/**
 * The booking an Idempotency-Key of the grant made, if it made one (a key given back made none); with `fingerprint`, only
 * one the key made for that very booking.
 */
export async function bookingUnderKey(
  owner: string,
  idempotencyKey: string,
  deps: Pick<BookingDeps, "store">,
  fingerprint?: string,
): Promise<Booking | undefined> {
  const record = await deps.store.keyRecord(owner, await sha256Hex(idempotencyKey));
  if (!record || (fingerprint !== undefined && record.fingerprint !== fingerprint)) return undefined;
  return ownBooking(record.booking_id, owner, deps);
}

/** Cancels the grant's own booking (again is no error); undefined when the grant has none of that id. */
export async function cancelOwnBooking(id: string, owner: string, deps: BookingDeps): Promise<Booking | undefined> {
  const booking = await ownBooking(id, owner, deps);
  if (!booking || booking.status === "cancelled") return booking;
  await cancelBooking(deps.cal, booking.provider_uid, "Cancelled by the person's agent.");
  const now = (deps.now ?? Date.now)();
  const cancelled: Booking = { ...booking, status: "cancelled", cancelled_at: new Date(now).toISOString() };
  await deps.store.save(cancelled, now);
  await forgetFreeTimesAt(Date.parse(booking.start), deps);
  // A notice not yet sent says the call was cancelled too.
  if (booking.lead_id) await deps.leads.noteCallCancelled(booking.id, cancelled.cancelled_at!);
  return cancelled;
}
