import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import type { Command } from "../../scripts/local-store/upstash-rest.ts";
import { createApiGateway } from "../../src/api/gateway.ts";
import { upstashLimiter, type Limiter } from "../../src/limits/limiter.ts";
import { policies } from "../../src/limits/policies.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { countedFor } from "../support/quota-count.ts";
import { staticNext } from "../support/static-files.ts";
import { realRedisAvailable, startRedisGateway, type Gateway } from "../support/upstash-gateway.ts";
import { patience } from "../support/patience.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The production quota path for real: @upstash/ratelimit and the grant script over @upstash/redis, through the Upstash
 * REST gateway, against the machine's Redis (and the weighed counts on the local store too). Each gateway instance
 * stands for one function instance. Exactness under concurrency is in the resilience suite
 * (tests/resilience/concurrency.test.ts).
 */
const available = await realRedisAvailable();

describe.runIf(available)("the public-api quota against real Redis", () => {
  let upstash: Gateway;
  beforeAll(async () => {
    upstash = await startRedisGateway(13);
  });
  afterAll(() => upstash.close());

  const instance = () =>
    createApiGateway({
      baseUrl: "https://studio.example",
      limiter: upstashLimiter(new Redis({ url: upstash.url, token: upstash.token, enableTelemetry: false }), { timeoutMs: patience }),
      deprecations: [],
      log: () => {},
    });

  it("costs one Upstash command per counted request", async () => {
    const gw = instance();
    await gw(new Request("https://studio.example/api/v1/company"), staticNext({ "/api/v1/company": {} }, "203.0.113.250"));
    const before = upstash.commands.length;
    for (let i = 0; i < 10; i++)
      await gw(new Request("https://studio.example/api/v1/company"), staticNext({ "/api/v1/company": {} }, "203.0.113.250"));
    expect(upstash.commands.length - before).toBe(10);
    expect(upstash.commands.slice(before).every((c) => String(c[0]).toUpperCase() === "EVALSHA")).toBe(true);
  });
});

/**
 * The limiter's weighed counts (a JSON-RPC batch counts each of its messages), on the local store and on real Redis:
 * one command however many are counted, allowed only if all of them fit, counted either way, and each window's key
 * made to expire on its first count.
 */
const stores: [string, () => Promise<Target>][] = [
  [
    "the local store",
    async () => {
      const dir = await storeFolder("frontdoor-limiter-");
      const commands: Command[] = [];
      const store = await startLocalStore({ token: "t", snapshotFile: join(dir, "s.json"), onCommand: (c) => commands.push(c) });
      return { ...store, commands, close: async () => (await store.close(), await rm(dir, { recursive: true, force: true })) };
    },
  ],
];
if (available) stores.push(["real Redis", () => startRedisGateway(13)]);

interface Target {
  url: string;
  token: string;
  commands: Command[];
  close(): Promise<void>;
}

describe.each(stores)("a weighed count on %s", (_name, start) => {
  let target: Target;
  let redis: Redis;
  let clock: TestClock;
  let limiter: Limiter;
  let n = 0;
  const fresh = (what: string) => `${what}-${process.pid}-${++n}`;
  beforeAll(async () => {
    clock = installClock();
    target = await start();
    redis = new Redis({ url: target.url, token: target.token, enableTelemetry: false });
    limiter = upstashLimiter(redis, { cacheBlocked: false, timeoutMs: patience });
  });
  afterAll(async () => {
    await target.close();
    clock.restore();
  });
  beforeEach(() => void clock.toNextWindow(60));
  /** Commands the store receives during `work`. */
  const commandsOf = async (work: () => Promise<unknown>) => {
    const before = target.commands.length;
    await work();
    return target.commands.slice(before).map((c) => String(c[0]).toLowerCase());
  };
  const ttlOf = async (pattern: string) => {
    const [key] = await redis.keys(pattern);
    return redis.pttl(key!);
  };

  it("counts a cost in one command, allows it only if all of it fits, and counts a refused one too", async () => {
    const ip = fresh("ip");
    const { quota } = policies.mcp;
    // A script's first use loads it into the store (EVALSHA, then EVAL): one count of another key does it.
    await limiter.consume("mcp", fresh("warm"));
    expect(await commandsOf(() => limiter.consume("mcp", ip, 5))).toEqual(["evalsha"]);
    expect(await limiter.consume("mcp", ip, quota - 10)).toMatchObject({ allowed: true, remaining: 5 });
    expect(await limiter.consume("mcp", ip, 6)).toMatchObject({ allowed: false, remaining: 0, policy: "mcp" });
    // What was left went with the refused count, as with any refused request: the window is spent.
    expect(await limiter.consume("mcp", ip)).toMatchObject({ allowed: false, remaining: 0 });
    const ttl = await ttlOf(`rl:mcp:${ip}:*`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // A request of one is counted as before: one, in one command.
    const other = fresh("ip");
    expect(await limiter.consume("mcp", other)).toMatchObject({ allowed: true, remaining: quota - 1 });
    expect(await limiter.consume("mcp", other, quota - 1)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("counts a grant's cost against its window and its address's ceiling in one command; past the grant's own, the address is left alone", async () => {
    const [grant, address] = [fresh("gc_grant"), fresh("ip")];
    await limiter.consumeGrant("mcp", fresh("gc_warm"), "grants-per-address", fresh("ip"));
    const counted = await commandsOf(async () =>
      expect(await limiter.consumeGrant("mcp", grant, "grants-per-address", address, 7)).toEqual([
        expect.objectContaining({ policy: "mcp", allowed: true, remaining: policies.mcp.quota - 7 }),
        expect.objectContaining({ policy: "grants-per-address", allowed: true, remaining: policies["grants-per-address"].quota - 7 }),
      ]),
    );
    expect(counted).toEqual(["evalsha"]);
    for (const pattern of [`rl:mcp:${grant}:*`, `rl:grants-per-address:${address}:*`]) {
      const ttl = await ttlOf(pattern);
      expect(ttl, pattern).toBeGreaterThan(0);
      expect(ttl, pattern).toBeLessThanOrEqual(60_000);
    }
    expect(await limiter.consumeGrant("mcp", grant, "grants-per-address", address, policies.mcp.quota)).toEqual([
      expect.objectContaining({ policy: "mcp", allowed: false, remaining: 0 }),
    ]);
    expect(await countedFor(redis, "grants-per-address", address)).toBe(7);
  });

  it("gives back what it counted for a grant when the thing counted did not happen, in one command", async () => {
    const [grant, address] = [fresh("gc_refund"), fresh("ip")];
    // The store learns the script on its first use (EVAL after EVALSHA's NOSCRIPT), once per store.
    await limiter.refundGrant(await limiter.consumeGrant("bookings-per-grant", fresh("gc_warm"), "bookings-per-address", fresh("ip")));
    const first = await limiter.consumeGrant("bookings-per-grant", grant, "bookings-per-address", address);
    const counted = await commandsOf(() => limiter.refundGrant(first));
    expect(counted).toEqual(["evalsha"]);
    expect(await countedFor(redis, "bookings-per-grant", grant)).toBe(0);
    expect(await countedFor(redis, "bookings-per-address", address)).toBe(0);
    // Refused past the grant's own limit, and given back: the grant is not left over its limit.
    for (let i = 0; i < policies["bookings-per-grant"].quota; i++)
      await limiter.consumeGrant("bookings-per-grant", grant, "bookings-per-address", address);
    const refused = await limiter.consumeGrant("bookings-per-grant", grant, "bookings-per-address", address);
    expect(refused).toEqual([expect.objectContaining({ allowed: false })]);
    await limiter.refundGrant(refused);
    expect(await countedFor(redis, "bookings-per-grant", grant)).toBe(policies["bookings-per-grant"].quota);
  });

  it("takes only a whole number of requests, at least one", async () => {
    for (const cost of [0, -1, 1.5, Number.NaN])
      await expect(limiter.consume("mcp", fresh("ip"), cost), String(cost)).rejects.toThrow(/whole number of requests/);
    await expect(limiter.consumeGrant("mcp", fresh("gc"), "grants-per-address", fresh("ip"), 0)).rejects.toThrow(RangeError);
  });
});
