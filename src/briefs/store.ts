import type { Redis } from "@upstash/redis";
import type { Lead } from "./lead.ts";

/**
 * Leads in Redis (Upstash in production, the local store locally): a lead is recorded here before the client is
 * told it was received, and stays until an operator removes it.
 *
 * - `lead:<id>`             the lead as JSON, no expiry
 * - `leads`                 sorted set of every lead id by time received
 * - `leads:due`             sorted set of leads whose e-mail is owed, by when to try next
 * - `lead:<id>:lock`        a delivery attempt in progress (60 s)
 * - `brief:idem:<client>:<key>`  an Idempotency-Key's fingerprint and lead (24 h)
 * - `brief:repeat:<client>:<fingerprint>`  the lead of the same brief from the same client (15 minutes)
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

export class LeadStore {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  /** Writes a new lead and schedules its e-mail, in one transaction. */
  async insert(lead: Lead): Promise<void> {
    const received = Date.parse(lead.received_at);
    const tx = this.#redis.multi();
    tx.set(`lead:${lead.id}`, JSON.stringify(lead));
    tx.zadd("leads", { score: received, member: lead.id });
    tx.zadd("leads:due", { score: received, member: lead.id });
    await tx.exec();
  }

  async get(id: string): Promise<Lead | null> {
    return parse(await this.#redis.get<string | Lead>(`lead:${id}`));
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

  /** Ids of leads whose e-mail is owed and due at `now`. */
  dueIds(now: number, limit = 20): Promise<string[]> {
    return this.#redis.zrange<string[]>("leads:due", 0, now, { byScore: true, offset: 0, count: limit });
  }

  /** Newest first. */
  async list(limit = 50): Promise<Lead[]> {
    const ids = await this.#redis.zrange<string[]>("leads", 0, limit - 1, { rev: true });
    if (ids.length === 0) return [];
    const values = await this.#redis.mget<(string | Lead | null)[]>(...ids.map((id) => `lead:${id}`));
    return values.map(parse).filter((l): l is Lead => l !== null);
  }

  /** Takes the delivery lock; false when another attempt holds it. */
  async lock(id: string, owner: string): Promise<boolean> {
    return (await this.#redis.set(`lead:${id}:lock`, owner, { nx: true, ex: 60 })) === "OK";
  }

  async unlock(id: string, owner: string): Promise<void> {
    // Only the owner releases, in one step.
    await this.#redis.eval(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      [`lead:${id}:lock`],
      [owner],
    );
  }

  /** Claims an Idempotency-Key for a new lead; returns the existing claim when there is one. */
  async claimIdempotencyKey(client: string, keyHash: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const key = `brief:idem:${client}:${keyHash}`;
    if ((await this.#redis.set(key, JSON.stringify(record), { nx: true, ex: idempotencyTtlSeconds })) === "OK") return null;
    return parse(await this.#redis.get<string | IdempotencyRecord>(key));
  }

  async pointIdempotencyKey(client: string, keyHash: string, record: IdempotencyRecord): Promise<void> {
    await this.#redis.set(`brief:idem:${client}:${keyHash}`, JSON.stringify(record), { ex: idempotencyTtlSeconds });
  }

  /** The lead of this client's identical brief in the repeat window, if any. */
  repeatLead(client: string, fingerprint: string): Promise<string | null> {
    return this.#redis.get<string>(`brief:repeat:${client}:${fingerprint}`);
  }

  /** Claims the repeat slot of this client's brief for a new lead; returns the lead already holding it, if any. */
  async claimRepeat(client: string, fingerprint: string, leadId: string): Promise<string | null> {
    const key = `brief:repeat:${client}:${fingerprint}`;
    if ((await this.#redis.set(key, leadId, { nx: true, ex: repeatWindowSeconds })) === "OK") return null;
    return this.#redis.get<string>(key);
  }

  /** Records a new lead about a person and returns the previous one about them, if any (one atomic step). */
  async notePerson(hash: string, leadId: string): Promise<string | null> {
    const key = `brief:person:${hash}`;
    const tx = this.#redis.multi();
    tx.get<string>(key);
    tx.set(key, leadId, { ex: samePersonWindowSeconds });
    const [previous] = (await tx.exec()) as [string | null, unknown];
    return previous && previous !== leadId ? previous : null;
  }
}

/** @upstash/redis parses JSON values itself; a string is parsed here. */
function parse<T>(value: string | T | null): T | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}
