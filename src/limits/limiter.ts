// The ESM build by path: the package names only its CommonJS build (no "module", no "exports"), whose class Netlify's
// edge bundler cannot see (it re-exports npm packages with `export *`, which is empty for CommonJS).
import { Ratelimit } from "@upstash/ratelimit/dist/index.mjs";
import type { Redis } from "@upstash/redis";
import { isStoreOutage } from "../store/redis.ts";
import { policies, type PolicyName, type QuotaPolicy } from "./policies.ts";

export interface QuotaResult {
  policy: PolicyName;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (delta seconds, as RateLimit's `t`). */
  resetSeconds: number;
  /** The window's key in the store, where consumeGrant counted it: what refundGrant gives back. */
  window?: string;
}

export class QuotaStoreUnavailable extends Error {
  override name = "QuotaStoreUnavailable";
}

export interface Limiter {
  /**
   * Counts one request of `key` against the policy, or `cost` requests at once (a JSON-RPC batch counts each of its
   * messages), in one command: allowed only if all of them fit in the window, and counted either way, as any refused
   * request is. Rejects with QuotaStoreUnavailable when the store cannot be reached in time, and with the store's own
   * error when it answers with one.
   */
  consume(policy: PolicyName, key: string, cost?: number): Promise<QuotaResult>;
  /**
   * Counts one request of a grant (or `cost` requests at once) against `policy`, and against `ceiling` for its address
   * (all grants together), in one command. A request past its grant's own limit is refused without counting against the
   * address, so one grant's loop never uses up the others' ceiling; a request the address's ceiling refuses is given
   * back to the grant, so others' use of the address never spends one grant's own allowance. Gives what was counted, the
   * grant's policy first: both, or the one that refused.
   */
  consumeGrant(policy: PolicyName, grant: string, ceiling: PolicyName, address: string, cost?: number): Promise<QuotaResult[]>;
  /**
   * Gives back what consumeGrant counted (its answer, `counted`) when the thing counted did not happen: a booking that
   * Cal.com refused or never answered, so that a business quota counts only what was done. One command; a count
   * already reset with its window is left alone.
   */
  refundGrant(counted: QuotaResult[], cost?: number): Promise<void>;
}

/** A cost is a whole number of requests, at least one. */
const checkedCost = (cost: number) => {
  if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`a quota cost is a whole number of requests, not ${cost}`);
  return cost;
};

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
  /**
   * How long @upstash/ratelimit waits for a count before it gives up and lets the request through (which consume() turns
   * into QuotaStoreUnavailable). Over the deployment's store client it is `limiterTimeoutMs`, later than the client's own
   * deadline; 2 s by default, for a client without one.
   */
  timeoutMs?: number;
}

/**
 * The library's timeout over a store client whose deadline is `storeDeadlineMs` (FRONTDOOR_STORE_TIMEOUT_MS): half a
 * second later, so that a slow store is always the client's outage, and the deadline the deployment sets is the one that
 * holds (npm start gives its local store ten seconds).
 */
export const limiterTimeoutMs = (storeDeadlineMs: number) => storeDeadlineMs + 500;

export function upstashLimiter(redis: Redis, { cacheBlocked = true, now = Date.now, timeoutMs = 2000 }: LimiterOptions = {}): Limiter {
  const grantWindows = grantWindowsCounter(redis, { cacheBlocked, now });
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
        timeout: timeoutMs,
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
    async consume(policy, key, cost = 1) {
      // The library's `rate`: one INCRBY of the window by the cost, in the same single script as a request of one.
      const rate = checkedCost(cost);
      const result = await reaching(policy, () => limiterFor(policy).limit(key, rate === 1 ? undefined : { rate }));
      if (result.reason === "timeout") throw new QuotaStoreUnavailable(`the quota store did not answer within ${timeoutMs} ms (${policy})`);
      return {
        policy,
        allowed: result.success,
        limit: result.limit,
        remaining: Math.max(0, result.remaining),
        resetSeconds: Math.max(0, Math.ceil((result.reset - now()) / 1000)),
      };
    },
    consumeGrant: (policy, grant, ceiling, address, cost = 1) =>
      reaching(policy, () => grantWindows.consume(policy, grant, ceiling, address, checkedCost(cost))),
    refundGrant: async (counted, cost = 1) => {
      if (counted.length > 0) await reaching(counted[0]!.policy, () => grantWindows.refund(counted, checkedCost(cost)));
    },
  };
}

/**
 * KEYS: the grant's window, the address's. ARGV: the grant's limit and window (ms), the address's window (ms), the cost
 * (requests counted at once), the address's limit. The same fixed windows and keys as @upstash/ratelimit's
 * (`rl:<policy>:<key>:<window index>`), two in one script, which the library cannot do: it counts one window per command.
 * A window is new when the count is the cost, as the library's own script says. A request the grant's own limit refuses
 * is not counted at its address; one the address's ceiling refuses is given back to the grant, whose own allowance it
 * did not use.
 */
const grantScript = `
local cost = tonumber(ARGV[4])
local grant = redis.call("INCRBY", KEYS[1], cost)
if grant == cost then redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
if grant > tonumber(ARGV[1]) then return {grant, -1} end
local address = redis.call("INCRBY", KEYS[2], cost)
if address == cost then redis.call("PEXPIRE", KEYS[2], ARGV[3]) end
if address > tonumber(ARGV[5]) then grant = redis.call("DECRBY", KEYS[1], cost) end
return {grant, address}
`;

/** KEYS: the windows to give back to. ARGV: the cost. A window that has expired (or counted less) is left alone. */
const refundScript = `
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call("GET", key) or "0")
  if count >= tonumber(ARGV[1]) then redis.call("DECRBY", key, ARGV[1]) end
end
return 1
`;

function grantWindowsCounter(redis: Redis, { cacheBlocked, now }: Required<Pick<LimiterOptions, "cacheBlocked" | "now">>) {
  const script = redis.createScript<[number, number]>(grantScript);
  const refundWindows = redis.createScript<number>(refundScript);
  /** Keys refused until their window ends: a refused request costs no command (the library's ephemeral cache). */
  const blocked = new Map<string, number>();
  const windowOf = (policy: PolicyName, key: string, at: number) => {
    const ms = policies[policy].windowSeconds * 1000;
    const index = Math.floor(at / ms);
    return { policy, ms, key: `rl:${policy}:${key}:${index}`, resetAt: (index + 1) * ms };
  };
  const result = (w: ReturnType<typeof windowOf>, count: number, at: number): QuotaResult => {
    const limit = policies[w.policy].quota;
    const allowed = count <= limit;
    // A window that counts can give back is full only for as long as the store says so, in every instance.
    if (!allowed && cacheBlocked && !(policies[w.policy] as QuotaPolicy).refundable) blocked.set(w.key, w.resetAt);
    return {
      policy: w.policy,
      allowed,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.ceil((w.resetAt - at) / 1000),
      window: w.key,
    };
  };
  const isBlocked = (w: ReturnType<typeof windowOf>, at: number) => {
    const until = blocked.get(w.key);
    if (until !== undefined && until <= at) blocked.delete(w.key);
    return until !== undefined && until > at;
  };

  const consume = async (policy: PolicyName, grant: string, ceiling: PolicyName, address: string, cost: number): Promise<QuotaResult[]> => {
    const at = now();
    const own = windowOf(policy, grant, at);
    const shared = windowOf(ceiling, address, at);
    // Answered from the cache, nothing counted: no window to give back to.
    const uncounted = (r: QuotaResult): QuotaResult[] => [{ ...r, window: undefined }];
    if (isBlocked(own, at)) return uncounted(result(own, policies[policy].quota + 1, at));
    if (isBlocked(shared, at)) return uncounted(result(shared, policies[ceiling].quota + 1, at));
    const [counted, total] = await script.exec(
      [own.key, shared.key],
      [String(policies[policy].quota), String(own.ms), String(shared.ms), String(cost), String(policies[ceiling].quota)],
    );
    if (total < 0) return [result(own, counted, at)];
    // Refused by the address's ceiling, the script already gave the grant's count back: nothing of it is left to refund.
    const mine = total > policies[ceiling].quota ? { ...result(own, counted, at), window: undefined } : result(own, counted, at);
    return [mine, result(shared, total, at)];
  };
  const refund = async (counted: QuotaResult[], cost: number) => {
    const windows = counted.flatMap((r) => (r.window ? [r.window] : []));
    if (windows.length === 0) return;
    await refundWindows.exec(windows, [String(cost)]);
    // A window given back to is no longer known to be full.
    for (const window of windows) blocked.delete(window);
  };
  return { consume, refund };
}
