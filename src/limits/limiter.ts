// The ESM build by path: the package names only its CommonJS build (no "module", no "exports"), whose class Netlify's
// edge bundler cannot see (it re-exports npm packages with `export *`, which is empty for CommonJS).
import { Ratelimit } from "@upstash/ratelimit/dist/index.mjs";
import type { Redis } from "@upstash/redis";
import { isStoreOutage } from "../store/redis.ts";
import { policies, type PolicyName } from "./policies.ts";

export interface QuotaResult {
  policy: PolicyName;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (delta seconds, as RateLimit's `t`). */
  resetSeconds: number;
}

export class QuotaStoreUnavailable extends Error {
  override name = "QuotaStoreUnavailable";
}

export interface Limiter {
  /**
   * Counts one request of `key` against the policy. Rejects with QuotaStoreUnavailable when the store cannot be
   * reached in time, and with the store's own error when it answers with one.
   */
  consume(policy: PolicyName, key: string): Promise<QuotaResult>;
}

/**
 * Fixed windows in Upstash: one EVALSHA per request, exact under any number of concurrent instances (the count is
 * one atomic script in Redis). Keys are `rl:<policy>:<key>:<window>`.
 */
export interface LimiterOptions {
  /**
   * Remember blocked clients in memory until their window resets, sparing Upstash a command per refused request.
   * On by default, the local runtime included; tests that reset a window in the store turn it off.
   */
  cacheBlocked?: boolean;
  now?: () => number;
}

export function upstashLimiter(redis: Redis, { cacheBlocked = true, now = Date.now }: LimiterOptions = {}): Limiter {
  const limiters = new Map<PolicyName, InstanceType<typeof Ratelimit>>();
  const limiterFor = (name: PolicyName) => {
    let limiter = limiters.get(name);
    if (!limiter) {
      const { quota, windowSeconds } = policies[name];
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(quota, `${windowSeconds} s`),
        prefix: `rl:${name}`,
        analytics: false,
        // On its timeout Ratelimit lets the request through and says reason "timeout"; consume() turns that into
        // an error so the caller decides what an outage means.
        timeout: 2000,
        ephemeralCache: cacheBlocked ? new Map() : false,
      });
      limiters.set(name, limiter);
    }
    return limiter;
  };

  /** An unreachable store is a QuotaStoreUnavailable; a store that answers with an error passes its error on. */
  const reaching = async <T>(policy: PolicyName, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (isStoreOutage(error)) throw new QuotaStoreUnavailable(`the quota store is unreachable (${policy}): ${String(error)}`);
      throw error;
    }
  };

  return {
    async consume(policy, key) {
      const result = await reaching(policy, () => limiterFor(policy).limit(key));
      if (result.reason === "timeout") throw new QuotaStoreUnavailable(`the quota store did not answer within 2 s (${policy})`);
      return {
        policy,
        allowed: result.success,
        limit: result.limit,
        remaining: Math.max(0, result.remaining),
        resetSeconds: Math.max(0, Math.ceil((result.reset - now()) / 1000)),
      };
    },
  };
}
