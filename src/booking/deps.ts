import type { LeadStore } from "../briefs/store.ts";
import type { Limiter } from "../limits/limiter.ts";
import type { CalCom } from "./cal-com.ts";
import type { BookingStore } from "./store.ts";

/** What booking needs from the deployment; every door books through it. */
export interface BookingDeps {
  cal: CalCom;
  store: BookingStore;
  leads: LeadStore;
  limiter: Limiter;
  /** The call's length (content/contact.yaml), for the ends of free times and of a booking still to be confirmed. */
  lengthMinutes: number;
  /** The studio's time zone: free times' default. */
  studioTimeZone: string;
  now?: () => number;
}

export interface BookingRequest {
  /** The grant booking it: the only one that will see or cancel the booking. */
  owner: string;
  /** The grant's address (src/http/bearer.ts `Caller.address`): every grant's bookings of one address have a ceiling. */
  address: string;
  /** As the client sent it (REST: the Idempotency-Key header), validated. */
  idempotencyKey?: string;
}
