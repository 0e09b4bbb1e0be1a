import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { policies } from "../../src/limits/policies.ts";
import { countedFor } from "../support/quota-count.ts";
import { patience } from "../support/patience.ts";
import { storeFolder } from "../support/scratch.ts";

/** A refusal answered from the in-memory cache counted nothing: giving it back must not free what others counted. */
let store: Awaited<ReturnType<typeof startLocalStore>>;
beforeAll(async () => {
  store = await startLocalStore({ token: "t", snapshotFile: join(await storeFolder("refund-"), "store.json") });
});
afterAll(() => store.close());

it("gives back nothing for a refusal the blocked cache answered", async () => {
  const redis = new Redis({ url: store.url, token: "t", enableTelemetry: false });
  const limiter = upstashLimiter(redis, { cacheBlocked: true, timeoutMs: patience });
  const quota = policies["bookings-per-grant"].quota;
  for (let i = 0; i < quota; i++) await limiter.consumeGrant("bookings-per-grant", "gr_a", "bookings-per-address", "198.51.100.7");
  const counted = await limiter.consumeGrant("bookings-per-grant", "gr_a", "bookings-per-address", "198.51.100.7");
  expect(counted[0]!.allowed).toBe(false);
  const cached = await limiter.consumeGrant("bookings-per-grant", "gr_a", "bookings-per-address", "198.51.100.7");
  expect(cached[0]!.allowed).toBe(false);
  await limiter.refundGrant(cached);
  expect(await countedFor(redis, "bookings-per-grant", "gr_a")).toBe(quota + 1);
  await limiter.refundGrant(counted);
  expect(await countedFor(redis, "bookings-per-grant", "gr_a")).toBe(quota);
});
