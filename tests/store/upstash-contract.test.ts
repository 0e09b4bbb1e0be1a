import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { nodeRequester } from "../../src/store/node-requester.ts";
import { installClock } from "../support/clock.ts";
import { realRedisAvailable, startRedisGateway } from "../support/upstash-gateway.ts";
import { storeFolder } from "../support/scratch.ts";
import { patience } from "../support/patience.ts";

/**
 * The same contract, through the real @upstash/redis and @upstash/ratelimit clients, against the local store
 * (always) and against the machine's real Redis behind the test gateway (whenever one answers; always in CI), with
 * both transports the project uses: the client's own fetch (the edge) and src/store/node-requester.ts (the functions).
 */
interface Target {
  url: string;
  token: string;
  close(): Promise<void>;
}

const dir = await storeFolder("frontdoor-store-");
const targets: [string, () => Promise<Target>][] = [
  ["local store", () => startLocalStore({ token: "local-token", snapshotFile: join(dir, "contract.json") })],
];
if (await realRedisAvailable()) {
  targets.push([
    "real Redis via the gateway",
    async () => {
      return startRedisGateway(12);
    },
  ]);
} else {
  console.warn("No Redis at 127.0.0.1:6379: the Upstash contract runs against the local store only.");
}

afterAll(() => rm(dir, { recursive: true, force: true }));

const transports: [string, (target: Target) => Redis][] = [
  ["the client's fetch", ({ url, token }) => new Redis({ url, token, enableTelemetry: false })],
  ["node:http", ({ url, token }) => new Redis(nodeRequester({ url, token, timeoutMs: patience, retries: 1, backoffMs: 50 }))],
];
const cases = targets.flatMap(([name, start]) => transports.map(([via, client]) => [name, via, start, client] as const));

describe.each(cases)("Upstash REST contract: %s over %s", (_name, _via, start, client) => {
  let target: Target;
  let redis: Redis;
  const prefix = `frontdoor-test:${randomUUID()}`;
  const key = (name: string) => `${prefix}:${name}`;

  beforeAll(async () => {
    target = await start();
    redis = client(target);
  });
  afterAll(() => target.close());

  it("sets and gets strings, unicode included", async () => {
    expect(await redis.set(key("s"), "Zoë → 東京 ✓")).toBe("OK");
    expect(await redis.get(key("s"))).toBe("Zoë → 東京 ✓");
  });

  it("honours SET NX EX as @upstash/redis sends it (lowercase options)", async () => {
    expect(await redis.set(key("nx"), "first", { nx: true, ex: 60 })).toBe("OK");
    expect(await redis.set(key("nx"), "second", { nx: true, ex: 60 })).toBeNull();
    expect(await redis.get(key("nx"))).toBe("first");
    const ttl = await redis.ttl(key("nx"));
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it("runs pipelines in order and transactions atomically", async () => {
    const pipe = redis.pipeline();
    pipe.incr(key("p"));
    pipe.incr(key("p"));
    pipe.get(key("p"));
    expect(await pipe.exec()).toEqual([1, 2, 2]);
    const tx = redis.multi();
    tx.hset(key("h"), { a: "1", b: "two" });
    tx.hgetall(key("h"));
    expect(await tx.exec()).toEqual([2, { a: 1, b: "two" }]);
  });

  it("reports command errors and refuses a wrong token", async () => {
    await redis.set(key("str"), "text");
    await expect(redis.incr(key("str"))).rejects.toThrow(/not an integer/);
    const intruder = client({ ...target, token: "wrong" });
    await expect(intruder.get(key("s"))).rejects.toThrow(/Unauthorized/);
  });

  it("runs scripts that start with a #!lua flags line, by SHA and by body", async () => {
    const script = "#!lua flags=allow-key-locking\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])";
    const sha = await redis.scriptLoad(script);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await redis.evalsha(sha, [key("lua")], ["5"])).toBe(5);
    expect(await redis.eval(script, [key("lua")], ["2"])).toBe(7);
  });

  it.each([
    ["fixedWindow", Ratelimit.fixedWindow(120, "60 s")],
    ["slidingWindow", Ratelimit.slidingWindow(120, "60 s")],
  ])("@upstash/ratelimit %s allows exactly 120 of 200 concurrent requests", async (name, limiter) => {
    // All 200 within one window: a window that ended midway would let more through (fixed) or reset before the check.
    const clock = installClock();
    clock.toNextWindow(60);
    // A client per request, as separate function instances would have, so no in-memory cache helps.
    const attempts = Array.from({ length: 200 }, () =>
      new Ratelimit({
        redis: client(target),
        limiter,
        prefix: key(`rl-${name}`),
        ephemeralCache: false,
        analytics: false,
        // The library lets a request through when the store answers after its timeout (5 s by default): on a busy
        // machine that is not what this test is about, so none is set, and every answer is the store's.
        timeout: 0,
      }).limit("203.0.113.7"),
    );
    const results = await Promise.all(attempts).finally(() => clock.restore());
    expect(results.filter((r) => r.reason === "timeout")).toEqual([]);
    expect(results.filter((r) => r.success)).toHaveLength(120);
    const last = results.filter((r) => !r.success).at(-1)!;
    expect(last.remaining).toBe(0);
    expect(last.reset).toBeGreaterThan(clock.now());
  });
});

describe("local store persistence", () => {
  it("keeps data and expiries across a restart", async () => {
    const snapshotFile = join(dir, "restart.json");
    const first = await startLocalStore({ token: "t", snapshotFile });
    const client = new Redis({ url: first.url, token: "t", enableTelemetry: false });
    await client.set("lead:1", "kept");
    await client.set("session", "expiring", { ex: 120 });
    await client.set("gone", "soon", { px: 1 });
    await client.hset("task:1", { state: "completed" });
    await client.rpush("queue", "a", "b");
    await client.zadd("retry", { score: 5, member: "lead:1" });
    await first.close();

    const second = await startLocalStore({ token: "t", snapshotFile });
    const again = new Redis({ url: second.url, token: "t", enableTelemetry: false });
    try {
      expect(second.restored).toBe(5);
      expect(await again.get("lead:1")).toBe("kept");
      expect(await again.get("gone")).toBeNull();
      expect(await again.ttl("session")).toBeGreaterThan(100);
      expect(await again.hgetall("task:1")).toEqual({ state: "completed" });
      expect(await again.lrange("queue", 0, -1)).toEqual(["a", "b"]);
      expect(await again.zrange("retry", 0, -1, { withScores: true })).toEqual(["lead:1", 5]);
    } finally {
      await second.close();
    }
  });

  it("has every acknowledged write on disk before it answers (a crash loses nothing)", async () => {
    const snapshotFile = join(dir, "crash.json");
    const first = await startLocalStore({ token: "t", snapshotFile });
    const client = new Redis({ url: first.url, token: "t", enableTelemetry: false });
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.set(`lead:${i}`, `v${i}`)));
    // No close(): the first store is simply abandoned, as a killed process would be.
    const second = await startLocalStore({ token: "t", snapshotFile: snapshotFile });
    try {
      expect(second.restored).toBe(50);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
