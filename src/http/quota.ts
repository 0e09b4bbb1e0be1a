import type { MiddlewareHandler } from "hono";
import { policyField, quotaHeaders, quotaReport } from "../limits/headers.ts";
import { QuotaStoreUnavailable, type Limiter, type QuotaResult } from "../limits/limiter.ts";
import { perWindow, policies, type PolicyName } from "../limits/policies.ts";
import { countedAddress } from "./bearer.ts";
import { setHeaders, type DoorContext, type DoorEnv } from "./context.ts";
import { Refusal } from "./refusal.ts";

export interface QuotaOptions {
  /**
   * While the quota store cannot be reached: "serve" (public reads stay available, reported with the policy alone)
   * or "refuse" (503: the door needs the store anyway).
   */
  whenUnreachable: "serve" | "refuse";
  /**
   * Count while the door works instead of before, weighed by the door: it calls `c.var.weigh(cost)` as soon as it has
   * read the request and knows what it costs (a JSON-RPC batch one per message), which starts the count; its answer
   * waits for the count, and a refusal replaces it. A request the door answers without weighing it (refused before its
   * body was read, a GET) counts one, once the door is done. Only for a door that reads until it awaits `c.var.counted`
   * (set by `weigh`) before anything with a side effect (/mcp files a brief only then), so a read no longer waits for
   * the store's round trip before it starts.
   */
  alongside?: boolean;
  /**
   * Count a request whose token is valid (`identify` ran before) against its grant, and against this ceiling for its
   * address, all grants together; anything else against the client IP. Without it every request counts its IP.
   */
  grants?: { ceiling: PolicyName };
  log?: (line: string) => void;
}

/**
 * The count of one request (or of `cost` at once) against `policy`, for a grant (its window and its address's ceiling)
 * or, without one, for the client's IP, in one command: the headers that report it, or the refusal that answers instead
 * of the door (429 past the limit; while the store is unreachable, the policy alone or a 503, as `whenUnreachable` says).
 */
function counter(limiter: Limiter, policy: PolicyName, { whenUnreachable, grants, log = console.error }: QuotaOptions) {
  let warned = false;
  const consume = (c: DoorContext, grant: string | undefined, cost: number, address: string): Promise<QuotaResult[]> =>
    grant && grants
      ? limiter.consumeGrant(policy, grant, grants.ceiling, address, cost)
      : limiter.consume(policy, c.env.ip, cost).then((result) => [result]);
  /** `address` is the one the grant counts against: where its person approved it, else the request's. */
  return async (c: DoorContext, grant: string | undefined, cost = 1, address = countedAddress(c)): Promise<Record<string, string>> => {
    try {
      const results = await consume(c, grant, cost, address);
      const reported = quotaReport(results);
      const refused = results.find((r) => !r.allowed);
      if (refused)
        throw new Refusal("rate_limited", { detail: exhausted(refused, cost), resolution: waitFor(refused, cost), headers: reported });
      return reported;
    } catch (error) {
      if (error instanceof Refusal) throw error;
      const reported = { "RateLimit-Policy": policyField(policy) };
      if (!(error instanceof QuotaStoreUnavailable) || whenUnreachable === "refuse") {
        // A store that answers but refuses (a wrong token, a broken URL) is a configuration error: loud, and no service.
        log(`quota store ${error instanceof QuotaStoreUnavailable ? "unreachable" : "error"}, ${policy} refused: ${String(error)}`);
        throw new Refusal("service_unavailable", { headers: reported });
      }
      if (!warned) log(`quota store unreachable, ${policy} served without quota enforcement: ${String(error)}`);
      warned = true;
      return reported;
    }
  };
}

/**
 * Counts every request against `policy` for the client's IP, or for its grant (`grants`), refuses past it (429,
 * Retry-After) and reports the quota on every response, refusals included. A response that already reports another
 * quota (a function behind an edge door, a per-client policy) keeps it: RateLimit and RateLimit-Policy list both, and
 * the single-valued fields stay those that explain the answer.
 */
export function quota(limiter: Limiter, policy: PolicyName, options: QuotaOptions): MiddlewareHandler<DoorEnv> {
  const count = counter(limiter, policy, options);
  const { alongside = false, grants } = options;
  return async (c, next) => {
    // A preflight is the browser's own request, answered (or refused) for free: never counted, never reported.
    if (c.req.method === "OPTIONS") return next();
    const token = c.get("token");
    const grant = grants && token?.ok ? token.grantId : undefined;
    if (!alongside) {
      const reported = await count(c, grant);
      await next();
      return report(c, reported);
    }
    let counting: Promise<Record<string, string>> | undefined;
    c.set("weigh", async (cost) => {
      if (counting) throw new Error(`the ${policy} quota was weighed twice for one request`);
      counting = count(c, grant, cost);
      // Settled later than it may fail: marked handled now, awaited below (and by the door before a side effect).
      const counted = counting.then(() => undefined);
      counting.catch(() => {});
      counted.catch(() => {});
      c.set("counted", counted);
      // Let the count's request leave before the door works on: started inside a chain of promises, it reaches the socket
      // only once that chain runs dry, so without this turn it would wait for the door's whole answer, overlapping
      // nothing. A turn of the event loop (setImmediate) drains the chain that sends it.
      await new Promise((resolve) => setImmediate(resolve));
    });
    await next();
    // A request the door never weighed (refused before it was read, a GET) counts one.
    report(c, await (counting ?? count(c, grant)));
  };
}

/**
 * Counts every request against `policy` once, for what the door identifies while it works: the door calls
 * `c.var.charge(grant)` as soon as it knows the grant (the token endpoint: the grant of the code it redeems, or the client
 * that proved itself), and a request that identified nothing is charged to the client's IP once the door is done. A
 * refusal past the limit replaces the door's answer; either way the response reports the count.
 */
export function quotaOnceIdentified(
  limiter: Limiter,
  policy: PolicyName,
  options: QuotaOptions & Required<Pick<QuotaOptions, "grants">>,
): MiddlewareHandler<DoorEnv> {
  const count = counter(limiter, policy, options);
  return async (c, next) => {
    let charged: Promise<Record<string, string>> | undefined;
    c.set("charge", async (grant, address) => void (await (charged ??= count(c, grant, 1, address))));
    await next();
    // A refusal of the charge the door asked for has answered already, with its headers.
    const reported = charged ? await charged.catch(() => undefined) : await count(c, undefined);
    if (reported) report(c, reported);
  };
}

/**
 * Counts one more policy for this request inside a door (a metadata document fetch, a brief message), for the client's
 * IP, or for a grant and, with `ceiling`, that policy for the client's IP (all grants together), in one command; throws
 * past a limit, and the response reports it beside the door's own quota.
 */
export async function countAlso(
  limiter: Limiter,
  policy: PolicyName,
  c: DoorContext,
  { grant, ceiling }: { grant?: string; ceiling?: PolicyName } = {},
): Promise<void> {
  const results =
    grant && ceiling
      ? await limiter.consumeGrant(policy, grant, ceiling, countedAddress(c))
      : [await limiter.consume(policy, grant ?? c.env.ip)];
  c.set("alsoCounted", [...(c.get("alsoCounted") ?? []), ...results]);
  const refused = results.find((r) => !r.allowed);
  if (refused)
    throw new Refusal("rate_limited", { detail: exhausted(refused), resolution: waitFor(refused), headers: quotaReport(results) });
}

const waitFor = (r: QuotaResult, cost = 1) =>
  `Wait ${Math.max(1, r.resetSeconds)} seconds (the Retry-After header), then retry${cost > 1 ? ", or send fewer messages at a time" : ""}; pace requests with the RateLimit header.`;

/** Why a count refused: the quota spent, or (for a request that counts several) more asked at once than was left. */
export const exhausted = ({ policy, limit, resetSeconds }: QuotaResult, cost = 1) => {
  const quota = `"${policy}" (${limit} ${perWindow(policies[policy].windowSeconds)})`;
  const retry = `retry after ${Math.max(1, resetSeconds)} seconds`;
  return cost > 1
    ? `This request counts as ${cost} requests, one per message it carries, more than is left of the quota ${quota}, so it is refused whole; ${retry}.`
    : `The quota ${quota} is used up for whoever it counts (this grant, or this address); ${retry}.`;
};

const lists = new Set(["ratelimit", "ratelimit-policy"]);

/** Adds this door's quota (and any counted with it) to the response, next to any quota it already reports. */
function report(c: DoorContext, own: Record<string, string>) {
  const merged: Record<string, string> = {};
  const also = (c.get("alsoCounted") ?? []).map(quotaHeaders);
  // The single-valued fields explain the last quota counted; the lists name them all.
  const reported = { ...own, ...also.at(-1) };
  for (const name of ["RateLimit-Policy", "RateLimit"]) {
    const listed = [own[name], ...also.map((h) => h[name])].filter(Boolean);
    if (listed.length > 0) reported[name] = listed.join(", ");
  }
  for (const [name, value] of Object.entries(reported)) {
    const own = c.res.headers.get(name);
    if (own === null) merged[name] = value;
    else if (lists.has(name.toLowerCase())) {
      // Only what the response does not list yet: a refusal of a quota counted here already names it.
      const listed = own.split(", ");
      const missing = value.split(", ").filter((item) => !listed.includes(item));
      if (missing.length > 0) merged[name] = [...missing, own].join(", ");
    }
  }
  setHeaders(c, merged);
}
