import type { Redis } from "@upstash/redis";
import { idPattern, randomId } from "../store/ids.ts";

/**
 * Bookings in Redis (Upstash in production, the local store locally), each visible only to the grant that made it.
 *
 * - `booking:<id>`               the booking as JSON, kept until 30 days after the call
 * - `booking:idem:<owner>:<key>` an Idempotency-Key's fingerprint and booking id (24 h)
 * - `booking:free:<query>`       Cal.com's free starts for one query (60 s), so an agent's polling costs Cal.com little
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

const parsed = <T>(value: string | T | null): T | null => (typeof value === "string" ? (JSON.parse(value) as T) : value);

export class BookingStore {
  readonly #redis: Redis;
  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async get(id: string): Promise<Booking | null> {
    return parsed(await this.#redis.get<string | Booking>(`booking:${id}`));
  }

  async save(booking: Booking, now: number): Promise<void> {
    const seconds = Math.max(60, Math.ceil((Date.parse(booking.end) - now) / 1000) + keptAfterCallSeconds);
    await this.#redis.set(`booking:${booking.id}`, JSON.stringify(booking), { ex: seconds });
  }

  /** Claims an Idempotency-Key for `record`; the record already there when another request claimed it first. */
  async claimKey(owner: string, keyHash: string, record: BookingKeyRecord): Promise<BookingKeyRecord | null> {
    const key = `booking:idem:${owner}:${keyHash}`;
    if ((await this.#redis.set(key, JSON.stringify(record), { nx: true, ex: bookingKeyTtlSeconds })) === "OK") return null;
    return parsed(await this.#redis.get<string | BookingKeyRecord>(key));
  }

  async cachedFreeStarts(query: string): Promise<string[] | null> {
    return parsed(await this.#redis.get<string | string[]>(`booking:free:${query}`));
  }

  async cacheFreeStarts(query: string, starts: string[]): Promise<void> {
    await this.#redis.set(`booking:free:${query}`, JSON.stringify(starts), { ex: freeStartsTtlSeconds });
  }
}
