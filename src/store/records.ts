import type { Redis } from "@upstash/redis";

/**
 * What every store does with a key, one operation each: read a JSON record, claim a key once, and give a claim back
 * only as its holder. Web-standard only: the edge runs this too.
 */

/** How long a claim lasts, as SET takes it: seconds (`ex`) or milliseconds (`px`). */
export type Lifetime = { ex: number } | { px: number };

/**
 * A JSON record as @upstash/redis hands it over: it parses JSON values itself, so text still left (a client that does
 * not, or text that is not JSON) is parsed here, and text that is not JSON throws its SyntaxError. No value is null.
 */
export function parseRecord<T>(value: T | string | null | undefined): T | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/** Sets `key` to `value` for `lifetime` unless it holds a value (SET NX): true when this call set it. */
export async function setIfAbsent(redis: Redis, key: string, value: string, lifetime: Lifetime): Promise<boolean> {
  return (await redis.set(key, value, { nx: true, ...lifetime })) === "OK";
}

/**
 * Claims `key` for `value` unless another claim came first: null when this call claimed it, else what the first claim
 * holds, as the client reads it (a JSON record parsed, other text as it is; null if it expired in between).
 */
export async function claimOnce<T = string>(redis: Redis, key: string, value: string, lifetime: Lifetime): Promise<T | null> {
  return (await setIfAbsent(redis, key, value, lifetime)) ? null : redis.get<T>(key);
}

/**
 * KEYS: the claim. ARGV: its holder's mark. A plain find rather than a comparison, so that one script serves a token
 * (the whole value) and a record's member: a random token never stands inside another of its length, nor a quoted
 * member inside a record naming someone else. An empty mark matches nothing.
 */
const releaseScript = `
local value = redis.call("GET", KEYS[1])
if value and #ARGV[1] > 0 and string.find(value, ARGV[1], 1, true) then return redis.call("DEL", KEYS[1]) end
return 0
`;

/**
 * Deletes `key` only while its value carries `owner`, in one step: a holder whose claim expired and went to another
 * request never deletes the other's. `owner` is the holder's random token (`crypto.randomUUID()`), or `recordMember`
 * for a JSON record naming its holder. True when it deleted the key.
 */
export async function releaseIfOwner(redis: Redis, key: string, owner: string): Promise<boolean> {
  return (await redis.eval<[string], number>(releaseScript, [key], [owner])) === 1;
}

/** The member `"name":"value"` as JSON.stringify writes it in a record: the mark `releaseIfOwner` finds there. */
export const recordMember = (name: string, value: string) => `${JSON.stringify(name)}:${JSON.stringify(value)}`;
