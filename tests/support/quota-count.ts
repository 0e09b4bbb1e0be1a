import type { Redis } from "@upstash/redis";
import { policies, type PolicyName } from "../../src/limits/policies.ts";

/** How many requests of `key` the store has counted against `policy` (its fixed-window keys `rl:<policy>:<key>:<window>`). */
export async function countedFor(redis: Redis, policy: PolicyName, key: string): Promise<number> {
  const keys = await redis.keys(`rl:${policy}:${key}:*`);
  const values = keys.length > 0 ? await redis.mget<(number | string | null)[]>(...keys) : [];
  return values.reduce<number>((sum, value) => sum + Number(value ?? 0), 0);
}

/**
 * Sets the counter of `key` against `policy` to `count`, as if that many requests had been counted: in the window it
 * counts now (one request must have made it) and in the next, so that a window ending while a test runs changes nothing.
 */
export async function setCounted(redis: Redis, policy: PolicyName, key: string, count: number): Promise<void> {
  const [counter] = await redis.keys(`rl:${policy}:${key}:*`);
  if (!counter) throw new Error(`no ${policy} counter for ${key}: count one request first`);
  await redis.set(counter, count, { keepTtl: true });
  const at = counter.lastIndexOf(":");
  const next = `${counter.slice(0, at)}:${Number(counter.slice(at + 1)) + 1}`;
  await redis.set(next, count, { px: 2 * policies[policy].windowSeconds * 1000 });
}

/** The address the runtime tests call from, which npm start hands the functions (netlify dev gives edge functions it too). */
export const localClient = "127.0.0.1";
