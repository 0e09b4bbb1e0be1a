import type { Redis } from "@upstash/redis";
import { emailShares, heldAlertId, heldReasons, sourceFields, utcDay, type HeldAlert, type HeldCounts, type HeldReason } from "./held.ts";
import type { CallNotice } from "./call-notice.ts";
import type { Delivery, Lead } from "./lead.ts";
import { insertScript, releaseScript } from "./store-scripts.ts";
import { claimOnce, parseRecord, recordMember, releaseIfOwner, setIfAbsent } from "../store/records.ts";
import { takeBusy, type Turn } from "../store/turns.ts";

/**
 * Leads in Redis (Upstash in production, the local store locally): a lead is recorded here before the client is
 * told it was received, and stays until an operator removes it.
 *
 * - `lead:<id>`             the lead as JSON, no expiry
 * - `leads`                 sorted set of every lead id by time received
 * - `leads:due`             sorted set of e-mails owed, by when to try next: lead ids, and `leads:alert:<day>:<kind>`
 * - `leads:held`            sorted set of leads held by the day's e-mail limit or their source's share of it, by time
 *                           received; never in `leads:due`
 * - `leads:emailed:<day>`   how many leads that UTC day went to `leads:due` (2 days)
 * - `leads:emailed:<day>:sources`  hash of the same per source: `address:<ip>` and `owner:<grant id or form:<ip>>` (2 days)
 * - `leads:held:<day>:sources`     hash of that day's leads still held, per source, the same fields (3 days)
 * - `leads:alert:<day>:<kind>`  the day's alert that leads are held for one kind of hold (`owner`, `address`, `day`),
 *                           from the first lead held that day for it (3 days once sent); `leads:alert:<day>`, the one
 *                           alert a day owed before there were kinds, is still delivered
 * - `leads:call:<booking id>`  the e-mail owed that an intro call was booked for a lead (src/briefs/call-notice.ts),
 *                           in `leads:due` until sent (30 days once sent)
 * - `lead:<id>:lock`, `leads:alert:<day>:<kind>:lock`, `leads:call:<booking id>:lock`  a delivery attempt in progress (60 s)
 * - `brief:idem:<owner>:<key>`  an Idempotency-Key's fingerprint and lead (24 h)
 * - `brief:repeat:<owner>:<fingerprint>`  the lead of the same brief from the same owner (15 minutes); the owner is the
 *                           filing grant, or `form:<ip>` for the contact form
 * - `brief:busy:<owner>:<fingerprint>`  the request filing that very brief (10 s): the same brief sent again meanwhile waits
 * - `brief:person:<hash>`   the latest lead about a person and company, from any client (30 days); it only
 *                           annotates the studio's e-mail and is never shown to a client
 */
export interface IdempotencyRecord {
  fingerprint: string;
  lead_id: string;
}

export const idempotencyTtlSeconds = 24 * 3600;
export const repeatWindowSeconds = 15 * 60;
export const samePersonWindowSeconds = 30 * 24 * 3600;
/** The day's counter outlives its day: it is refreshed on each count. */
const emailedCounterSeconds = 2 * 24 * 3600;
const finishedAlertSeconds = 3 * 24 * 3600;
/** As long as the day's alerts once sent, so that they can count their source's held leads while they are retried. */
const heldCountsSeconds = finishedAlertSeconds;

export const alertKey = (day: string, reason: HeldReason) => `leads:alert:${day}:${reason}`;
export const emailedKey = (day: string) => `leads:emailed:${day}`;
export const emailedSourcesKey = (day: string) => `leads:emailed:${day}:sources`;
export const heldSourcesKey = (day: string) => `leads:held:${day}:sources`;
export const isAlertKey = (id: string) => id.startsWith("leads:alert:");
export const callNoticeKey = (bookingId: string) => `leads:call:${bookingId}`;
export const isCallNoticeKey = (id: string) => id.startsWith("leads:call:");
const lockKey = (id: string) => (isAlertKey(id) || isCallNoticeKey(id) ? `${id}:lock` : `lead:${id}:lock`);
const idemKey = (owner: string, keyHash: string) => `brief:idem:${owner}:${keyHash}`;
const repeatKey = (owner: string, fingerprint: string) => `brief:repeat:${owner}:${fingerprint}`;
const finishedNoticeSeconds = 30 * 24 * 3600;

export class LeadStore {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  /**
   * Writes a new lead in one atomic step: scheduled for e-mail while its UTC day has e-mailed fewer than `dailyLimit`,
   * its address fewer than its share and its owner fewer than its share (`emailShares`), else held (and, for the day's
   * first lead held for its reason, that kind's alert scheduled). `owed`: what to try e-mailing now.
   */
  async insert(lead: Lead & { address: string }, dailyLimit: number): Promise<{ delivery: Delivery; owed: string[] }> {
    const received = Date.parse(lead.received_at);
    const day = utcDay(received);
    const shares = emailShares(dailyLimit);
    const fields = sourceFields(lead);
    const as = (state: "pending" | "held") => JSON.stringify({ ...lead, delivery: { ...lead.delivery, state } });
    const alert = (reason: HeldReason): string => {
      const base: HeldAlert = { day, limit: dailyLimit, created_at: lead.received_at, delivery: { state: "pending", attempts: 0 } };
      const source =
        reason === "owner" ? { address: lead.address, owner: lead.owner } : reason === "address" ? { address: lead.address } : {};
      return JSON.stringify({ ...base, reason, ...source, id: heldAlertId(day, reason) });
    };
    const placed = await this.#redis.eval<(string | number)[], number>(
      insertScript,
      [
        `lead:${lead.id}`,
        "leads",
        "leads:due",
        "leads:held",
        emailedKey(day),
        emailedSourcesKey(day),
        heldSourcesKey(day),
        ...heldReasons.map((reason) => alertKey(day, reason)),
      ],
      [
        lead.id,
        received,
        dailyLimit,
        shares.address,
        shares.owner,
        emailedCounterSeconds,
        heldCountsSeconds,
        fields.address,
        fields.owner,
        as("pending"),
        as("held"),
        ...heldReasons.map(alert),
      ],
    );
    if (placed === 0) return { delivery: { ...lead.delivery, state: "pending" }, owed: [lead.id] };
    const claimed = heldReasons[placed - 2];
    return { delivery: { ...lead.delivery, state: "held" }, owed: claimed ? [alertKey(day, claimed)] : [] };
  }

  /** Moves a held lead into the delivery queue; false when it was not held (already released, or never). */
  async release(lead: Lead, now: number): Promise<boolean> {
    const pending: Lead = { ...lead, delivery: { ...lead.delivery, state: "pending", next_attempt_at: new Date(now).toISOString() } };
    const fields = lead.address === undefined ? [] : Object.values(sourceFields({ address: lead.address, owner: lead.owner }));
    const released = await this.#redis.eval<(string | number)[], number>(
      releaseScript,
      [`lead:${lead.id}`, "leads:held", "leads:due", heldSourcesKey(utcDay(Date.parse(lead.received_at)))],
      [lead.id, JSON.stringify(pending), now, ...fields],
    );
    return released === 1;
  }

  /** Every held lead id, oldest first. */
  heldIds(): Promise<string[]> {
    return this.#redis.zrange<string[]>("leads:held", 0, -1);
  }

  /**
   * `source`: a source field (`sourceFields`) whose leads of that day still held are counted too. The counts are read in
   * one transaction, so that they agree (the source's no more than the day's, the day's no more than all) while briefs
   * are being held meanwhile.
   */
  async heldCounts(day: string, source?: string): Promise<HeldCounts> {
    const start = Date.parse(`${day}T00:00:00Z`);
    const tx = this.#redis
      .multi()
      .zcount("leads:held", start, start + 86_400_000 - 1)
      .zcard("leads:held");
    if (source !== undefined) tx.hget<number>(heldSourcesKey(day), source);
    const [today, all, fromSource] = (await tx.exec()) as [number, number, number | null | undefined];
    return { today, all, ...(source === undefined ? {} : { fromSource: Number(fromSource ?? 0) }) };
  }

  /** The addresses with the most of a day's e-mailed leads, most first (`leads:emailed:<day>:sources`). */
  async busiestAddresses(day: string, count = 3): Promise<{ address: string; emailed: number }[]> {
    const counts = (await this.#redis.hgetall<Record<string, number | string>>(emailedSourcesKey(day))) ?? {};
    return Object.entries(counts)
      .filter(([field]) => field.startsWith("address:"))
      .map(([field, emailed]) => ({ address: field.slice("address:".length), emailed: Number(emailed) }))
      .sort((a, b) => b.emailed - a.emailed || a.address.localeCompare(b.address))
      .slice(0, count);
  }

  async getAlert(key: string): Promise<HeldAlert | null> {
    return parseRecord(await this.#redis.get<string | HeldAlert>(key));
  }

  /** Saves an alert's delivery state (under its key in `leads:due`) and its place in the queue; once sent (or refused for
   * good) it expires, kept past the end of its day, so the day's claim on its kind holds and no second alert of it is owed. */
  saveAlert(key: string, alert: HeldAlert): Promise<void> {
    return this.#saveOwed(key, alert, finishedAlertSeconds);
  }

  async getCallNotice(key: string): Promise<CallNotice | null> {
    return parseRecord(await this.#redis.get<string | CallNotice>(key));
  }

  /** Owes (and then saves the delivery of) the e-mail that a call was booked for a lead; once sent it expires. */
  saveCallNotice(notice: CallNotice): Promise<void> {
    return this.#saveOwed(callNoticeKey(notice.booking_id), notice, finishedNoticeSeconds);
  }

  /** Notes on a call notice not yet sent that the call was cancelled, so the e-mail says so. */
  async noteCallCancelled(bookingId: string, cancelledAt: string): Promise<void> {
    const key = callNoticeKey(bookingId);
    const notice = await this.getCallNotice(key);
    if (!notice || (notice.delivery.state !== "pending" && notice.delivery.state !== "sending")) return;
    await this.#saveOwed(key, { ...notice, cancelled_at: cancelledAt }, finishedNoticeSeconds);
  }

  async #saveOwed<T extends { created_at: string; delivery: Delivery }>(key: string, owed: T, finishedSeconds: number): Promise<void> {
    const tx = this.#redis.multi();
    const due = owed.delivery.state === "pending" || owed.delivery.state === "sending";
    if (due) {
      tx.set(key, JSON.stringify(owed));
      tx.zadd("leads:due", { score: Date.parse(owed.delivery.next_attempt_at ?? owed.created_at), member: key });
    } else {
      tx.set(key, JSON.stringify(owed), { ex: finishedSeconds });
      tx.zrem("leads:due", key);
    }
    await tx.exec();
  }

  async get(id: string): Promise<Lead | null> {
    return parseRecord(await this.#redis.get<string | Lead>(`lead:${id}`));
  }

  /** Saves a lead's new delivery state and its place in the queue. */
  async saveDelivery(lead: Lead): Promise<void> {
    const tx = this.#redis.multi();
    tx.set(`lead:${lead.id}`, JSON.stringify(lead));
    const due = lead.delivery.state === "pending" || lead.delivery.state === "sending";
    if (due) tx.zadd("leads:due", { score: Date.parse(lead.delivery.next_attempt_at ?? lead.received_at), member: lead.id });
    else tx.zrem("leads:due", lead.id);
    await tx.exec();
  }

  /** What is owed an e-mail and due at `now`: lead ids, alert keys (`isAlertKey`) and call notices (`isCallNoticeKey`). */
  dueIds(now: number, limit = 20): Promise<string[]> {
    return this.#redis.zrange<string[]>("leads:due", 0, now, { byScore: true, offset: 0, count: limit });
  }

  /** Newest first. */
  async list(limit = 50): Promise<Lead[]> {
    const ids = await this.#redis.zrange<string[]>("leads", 0, limit - 1, { rev: true });
    if (ids.length === 0) return [];
    const values = await this.#redis.mget<(string | Lead | null)[]>(...ids.map((id) => `lead:${id}`));
    return values.map(parseRecord).filter((l): l is Lead => l !== null);
  }

  /** Takes the delivery lock of a lead or an alert (an id from `dueIds`); false when another attempt holds it. */
  lock(id: string, owner: string): Promise<boolean> {
    return setIfAbsent(this.#redis, lockKey(id), owner, { ex: 60 });
  }

  /** Gives back the lock `owner` took; nothing when it expired and another attempt holds it now. */
  async unlock(id: string, owner: string): Promise<void> {
    await releaseIfOwner(this.#redis, lockKey(id), owner);
  }

  /** Claims an owner's Idempotency-Key for a new lead; returns the existing claim when there is one. */
  async claimIdempotencyKey(owner: string, keyHash: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const key = idemKey(owner, keyHash);
    return parseRecord(
      await claimOnce<string | IdempotencyRecord>(this.#redis, key, JSON.stringify(record), { ex: idempotencyTtlSeconds }),
    );
  }

  /** Gives back an owner's Idempotency-Key while it still names `leadId`, which was never recorded. */
  async releaseIdempotencyKey(owner: string, keyHash: string, leadId: string): Promise<void> {
    await releaseIfOwner(this.#redis, idemKey(owner, keyHash), recordMember("lead_id", leadId));
  }

  /** What an owner's Idempotency-Key filed, if it filed anything (within its 24 hours). */
  async idempotencyRecord(owner: string, keyHash: string): Promise<IdempotencyRecord | null> {
    return parseRecord(await this.#redis.get<string | IdempotencyRecord>(idemKey(owner, keyHash)));
  }

  async pointIdempotencyKey(owner: string, keyHash: string, record: IdempotencyRecord): Promise<void> {
    await this.#redis.set(idemKey(owner, keyHash), JSON.stringify(record), { ex: idempotencyTtlSeconds });
  }

  /** The lead of this owner's identical brief in the repeat window, if any. */
  repeatLead(owner: string, fingerprint: string): Promise<string | null> {
    return this.#redis.get<string>(repeatKey(owner, fingerprint));
  }

  /** Takes the right to file this owner's very brief while one request files it; undefined while another does. */
  takeSameBrief(owner: string, fingerprint: string, ms: number): Promise<Turn | undefined> {
    return takeBusy(this.#redis, `brief:busy:${owner}:${fingerprint}`, ms);
  }

  /** Claims the repeat slot of this owner's brief for a new lead; returns the lead already holding it, if any. */
  claimRepeat(owner: string, fingerprint: string, leadId: string): Promise<string | null> {
    return claimOnce(this.#redis, repeatKey(owner, fingerprint), leadId, { ex: repeatWindowSeconds });
  }

  /** Gives the repeat slot to a new lead: its holder died before it recorded its own (the caller holds the brief's turn). */
  async replaceRepeat(owner: string, fingerprint: string, leadId: string): Promise<void> {
    await this.#redis.set(repeatKey(owner, fingerprint), leadId, { ex: repeatWindowSeconds });
  }

  /** The latest recorded lead about a person and company, from any client. */
  lastLeadAbout(person: string): Promise<string | null> {
    return this.#redis.get<string>(`brief:person:${person}`);
  }

  /** Notes a recorded lead as the latest about its person and company. */
  async noteLeadAbout(person: string, leadId: string): Promise<void> {
    await this.#redis.set(`brief:person:${person}`, leadId, { ex: samePersonWindowSeconds });
  }
}
