import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "@upstash/redis";
import { createApiGateway } from "../../src/api/gateway.ts";
import type { HandlerContext } from "../../src/http/context.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { realRedisAvailable, startRedisGateway } from "../../tests/support/upstash-gateway.ts";
import { startLocalStore } from "../local-store/store.ts";
import { describeFigures, measure } from "./stats.ts";

/**
 * The /api gateway's overhead on a JSON read: the gateway called in-process as the edge calls it (quota through
 * @upstash/ratelimit on the LOCAL STORE over loopback, route check, strong ETag) against the bare read of the same
 * prebuilt file it hands on to. Also counts the Upstash commands per request (the paid unit). When a Redis answers at
 * 127.0.0.1:6379, the quota also runs on it through the tests' Upstash REST gateway: the same protocol without the
 * local store's emulator and log, closer to what a round trip to Upstash costs beyond the network.
 */
export default async function apiBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const company = await readFile(join(root, "dist/api/v1/company.json")).catch(() => {
    throw new Error("dist/ is missing: run npm run build first");
  });
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-bench-"));
  let commands = 0;
  const store = await startLocalStore({ token: "bench", snapshotFile: join(dir, "store.json"), onCommand: () => (commands += 1) });
  try {
    const gateway = createApiGateway({
      baseUrl: "https://studio.example",
      limiter: upstashLimiter(new Redis({ url: store.url, token: store.token, enableTelemetry: false })),
      deprecations: [],
    });
    const file = async () => new Response(company, { headers: { "content-type": "application/json" } });
    let client = 0;
    // A new client address for every request, so no request is refused and every one is counted.
    const context = (): HandlerContext => ({
      ip: `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`,
      waitUntil: () => {},
      next: file,
    });

    const bare = await measure(async () => (await file()).arrayBuffer());
    const before = commands;
    const through = await measure(async () => {
      const res = await gateway(new Request("https://studio.example/api/v1/company"), context());
      if (res.status !== 200) throw new Error(`gateway answered ${res.status}`);
      await res.arrayBuffer();
    });
    const perRequest = (commands - before) / (through.count + 50);
    // The gateway's own work (routing, headers, the ETag's SHA-256) with a limiter that answers at once.
    const instant = createApiGateway({
      baseUrl: "https://studio.example",
      deprecations: [],
      limiter: {
        consume: async (policy) => ({ policy, allowed: true, limit: 120, remaining: 119, resetSeconds: 60 }),
        consumeGrant: () => Promise.reject(new Error("/api counts the client IP only")),
        refundGrant: () => Promise.reject(new Error("/api counts the client IP only")),
      },
    });
    let onRedis: Awaited<ReturnType<typeof measure>> | undefined;
    if (await realRedisAvailable()) {
      const gateway = await startRedisGateway(10, "bench");
      try {
        const limiter = upstashLimiter(new Redis({ url: gateway.url, token: gateway.token, enableTelemetry: false }));
        const viaRedis = createApiGateway({ baseUrl: "https://studio.example", limiter, deprecations: [] });
        onRedis = await measure(async () =>
          (await viaRedis(new Request("https://studio.example/api/v1/company"), context())).arrayBuffer(),
        );
      } finally {
        await gateway.close();
      }
    }
    const own = await measure(async () => (await instant(new Request("https://studio.example/api/v1/company"), context())).arrayBuffer());

    console.log(describeFigures("bare read of the prebuilt file", bare));
    console.log(describeFigures("through the gateway, quota answered at once", own));
    console.log(describeFigures("through the gateway, quota on the local store", through));
    if (onRedis) console.log(describeFigures("through the gateway, quota on Redis (REST)", onRedis));
    console.log(
      `gateway's own added latency p50 ${(own.p50 - bare.p50).toFixed(3)} ms (ratio ${(own.perSecond / bare.perSecond).toFixed(3)})`,
    );
    console.log(
      `with the quota round trip p50 ${(through.p50 - bare.p50).toFixed(2)} ms (ratio ${(through.perSecond / bare.perSecond).toFixed(3)}); in production that round trip is Upstash's`,
    );
    if (onRedis)
      console.log(
        `with Redis behind the REST protocol: p50 +${(onRedis.p50 - bare.p50).toFixed(2)} ms (ratio ${(onRedis.perSecond / bare.perSecond).toFixed(3)})`,
      );
    console.log(`Upstash commands per counted request: ${perRequest.toFixed(2)}`);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
