import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiGateway } from "../../src/api/gateway.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { staticNext } from "../support/static-files.ts";
import { realRedisAvailable, startRedisGateway, type Gateway } from "../support/upstash-gateway.ts";

/**
 * The production quota path for real: @upstash/ratelimit over @upstash/redis, through the Upstash REST gateway,
 * against the machine's Redis. Each gateway instance stands for one function instance. Exactness under concurrency is
 * in the resilience suite (tests/resilience/concurrency.test.ts).
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
      limiter: upstashLimiter(new Redis({ url: upstash.url, token: upstash.token, enableTelemetry: false })),
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
