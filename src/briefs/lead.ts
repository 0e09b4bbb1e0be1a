import type { Brief } from "./schema.ts";
import { idPattern, randomId } from "../store/ids.ts";

/** Where a brief came from: the same pipeline serves all four. */
export type Channel = "rest" | "mcp" | "a2a" | "form";

/**
 * Delivery of the lead e-mail. `sending` is recorded before Postmark is called, so an attempt that dies midway is
 * visible; the next attempt asks Postmark whether the message went out before it sends anything. `held`: the day's
 * e-mail limit (LEADS_EMAIL_DAILY_LIMIT), or its source's share of it, was reached when it arrived; it waits in
 * `leads:held` for an operator to release it (`npm run leads -- release`), which makes it `pending`.
 */
export type DeliveryState = "pending" | "sending" | "delivered" | "failed" | "held";

export interface Delivery {
  state: DeliveryState;
  attempts: number;
  next_attempt_at?: string;
  last_error?: string;
  message_id?: string;
  delivered_at?: string;
}

export interface Lead {
  id: string;
  received_at: string;
  channel: Channel;
  /** The OAuth client that filed it (or `form:<ip>` for the contact form). */
  client_id: string;
  /**
   * Whose brief it is: the grant that filed it (src/oauth/grants.ts), or `form:<ip>` for the contact form. Only the same
   * owner's replays and repeats ever answer with this lead.
   */
  owner: string;
  /**
   * The client address it was filed from: with its owner, its source, whose share of the day's e-mail it counts against
   * (src/briefs/held.ts). Leads recorded before sources were shared have none.
   */
  address?: string;
  brief: Brief;
  /** An earlier lead about the same work e-mail and company (from any client): a hint for the studio only. */
  possibly_same_person_as?: string;
  delivery: Delivery;
}

/** `lead_` and 20 random Crockford base32 characters (100 bits): unguessable and easy to read out. */
export const newLeadId = () => randomId("lead");
export const leadIdPattern = idPattern("lead");

/** Exponential backoff for delivery retries: 1, 2, 4, ... minutes, at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
