import type { Redis } from "@upstash/redis";
import { idPattern, randomId } from "../store/ids.ts";
import { claimOnce, parseRecord, recordMember, releaseIfOwner } from "../store/records.ts";
import { takeBusy, type Turn } from "../store/turns.ts";

/**
 * Bookings in Redis (Upstash in production, the local store locally), each visible only to the grant that made it.
 *
 * - `booking:<id>`               the booking as JSON, kept until 30 days after the call
 * - `booking:idem:<owner>:<key>` an Idempotency-Key's fingerprint and booking id (24 h)
 * - `booking:at:<owner>:<start>:<e-mail>` the grant's booking of that person (their work e-mail, lower case) at that start
 *                                  (UTC), as long as the booking is kept
 * - `booking:busy:<id>`          the request booking under this id (at most 20 s): retries of its key wait their turn
 * - `booking:busy:same:<owner>:<fingerprint>` the request booking this very booking without a key (at most 20 s): the same
 *                                  booking sent again meanwhile waits for it
 * - `booking:free:<week>`        Cal.com's free starts for one week of UTC days (60 s), so agents' polling costs it little
 */
export interface Booking {
  /** `bk_` and 20 random Crockford base32 characters: ours, never Cal.com's. */
  id: string;
  /** The grant that made it: the only one that sees or cancels it. */
  owner: string;
  /** Cal.com's uid: kept here, never shown. */
  provider_uid: string;
  /** UTC, RFC 3339 */
  start: string;
  end: string;
  time_zone: string;
  attendee: { full_name: string; work_email: string };
  lead_id?: string;
  status: "booked" | "cancelled";
  booked_at: string;
  cancelled_at?: string;
}

export interface BookingKeyRecord {
  fingerprint: string;
  booking_id: string;
}

export const bookingKeyTtlSeconds = 24 * 3600;
export const freeStartsTtlSeconds = 60;
const keptAfterCallSeconds = 30 * 24 * 3600;

export const newBookingId = () => randomId("bk");
export const bookingIdPattern = idPattern("bk");

export class BookingStore {
  readonly #redis: Redis;
  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async get(id: string): Promise<Booking | null> {
    return parseRecord(await this.#redis.get<string | Booking>(`booking:${id}`));
  }

  async save(booking: Booking, now: number): Promise<void> {
    const seconds = Math.max(60, Math.ceil((Date.parse(booking.end) - now) / 1000) + keptAfterCallSeconds);
    const tx = this.#redis.multi();
    tx.set(`booking:${booking.id}`, JSON.stringify(booking), { ex: seconds });
    tx.set(atKey(booking.owner, booking.start, booking.attendee.work_email), booking.id, { ex: seconds });
    await tx.exec();
  }

  /** The grant's booking of the person at `start` (any RFC 3339 offset), if it has one that is not cancelled. */
  async bookedAt(owner: string, start: string, workEmail: string): Promise<Booking | null> {
    const id = await this.#redis.get<string>(atKey(owner, start, workEmail));
    const booking = id ? await this.get(id) : null;
    return booking && booking.owner === owner && booking.status === "booked" ? booking : null;
  }

  /** What an Idempotency-Key of the grant booked under, if it claimed anything (within its 24 hours). */
  async keyRecord(owner: string, keyHash: string): Promise<BookingKeyRecord | null> {
    return parseRecord(await this.#redis.get<string | BookingKeyRecord>(idemKey(owner, keyHash)));
  }

  /** Points a key this request claimed at the booking it was answered with (another key's, made at the same time). */
  async pointKey(owner: string, keyHash: string, record: BookingKeyRecord): Promise<void> {
    await this.#redis.set(idemKey(owner, keyHash), JSON.stringify(record), { ex: bookingKeyTtlSeconds });
  }

  /** Claims an Idempotency-Key for `record`; the record already there when another request claimed it first. */
  async claimKey(owner: string, keyHash: string, record: BookingKeyRecord): Promise<BookingKeyRecord | null> {
    const key = idemKey(owner, keyHash);
    return parseRecord(await claimOnce<string | BookingKeyRecord>(this.#redis, key, JSON.stringify(record), { ex: bookingKeyTtlSeconds }));
  }

  /**
   * Takes the right to book under `id` for at most `ms`, until `done`: undefined while another request holds it, so
   * retries of one Idempotency-Key book one at a time.
   */
  takeBusy(id: string, ms: number): Promise<Turn | undefined> {
    return takeBusy(this.#redis, `booking:busy:${id}`, ms);
  }

  /** Takes the right to book this very booking (the grant's, of this person, at this start) while one request makes it. */
  takeSameBooking(owner: string, fingerprint: string, ms: number): Promise<Turn | undefined> {
    return takeBusy(this.#redis, `booking:busy:same:${owner}:${fingerprint}`, ms);
  }

  /** Gives back a key this request claimed and booked nothing under, so that it can book another time. */
  async releaseKey(owner: string, keyHash: string, bookingId: string): Promise<void> {
    // Only the claim of the request booking under `bookingId`: a key pointed at another booking since stays.
    await releaseIfOwner(this.#redis, idemKey(owner, keyHash), recordMember("booking_id", bookingId));
  }

  async cachedFreeStarts(query: string): Promise<string[] | null> {
    return parseRecord(await this.#redis.get<string | string[]>(`booking:free:${query}`));
  }

  async cacheFreeStarts(query: string, starts: string[]): Promise<void> {
    await this.#redis.set(`booking:free:${query}`, JSON.stringify(starts), { ex: freeStartsTtlSeconds });
  }

  async forgetFreeStarts(query: string): Promise<void> {
    await this.#redis.del(`booking:free:${query}`);
  }
}

const atKey = (owner: string, start: string, workEmail: string) =>
  `booking:at:${owner}:${new Date(start).toISOString()}:${workEmail.toLowerCase()}`;
const idemKey = (owner: string, keyHash: string) => `booking:idem:${owner}:${keyHash}`;
