import type { Redis } from "@upstash/redis";
import type { PolicyName } from "../../src/limits/policies.ts";

/** How many requests of `key` the store has counted against `policy` (its fixed-window keys `rl:<policy>:<key>:<window>`). */
export async function countedFor(redis: Redis, policy: PolicyName, key: string): Promise<number> {
  const keys = await redis.keys(`rl:${policy}:${key}:*`);
  const values = keys.length > 0 ? await redis.mget<(number | string | null)[]>(...keys) : [];
  return values.reduce<number>((sum, value) => sum + Number(value ?? 0), 0);
}

/** The client address netlify dev hands every function and edge function, whoever connects. */
export const localClient = "127.0.0.1";
