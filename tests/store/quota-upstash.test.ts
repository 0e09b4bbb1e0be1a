import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiGateway } from "../../src/api/gateway.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { staticNext } from "../support/static-files.ts";
import { realRedisAvailable, startRedisGateway, type Gateway } from "../support/upstash-gateway.ts";
import { inFreshWindow } from "../support/window.ts";

/**
 * The production quota path for real: @upstash/ratelimit over @upstash/redis, through the Upstash REST gateway,
 * against the machine's Redis. Each gateway instance stands for one function instance.
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

  it("lets exactly 120 of 200 simultaneous requests from one IP through, across 20 instances", async () => {
    const instances = Array.from({ length: 20 }, instance);
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const files = { "/api/v1/company": { name: randomUUID() } };
    await inFreshWindow();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        instances[i % 20]!(new Request("https://studio.example/api/v1/company"), staticNext(files, ip)),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    for (const r of responses.filter((r) => r.status === 429)) {
      expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(r.headers.get("ratelimit")).toMatch(/^"public-api";r=0;t=\d+$/);
    }
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
