import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import RedisMock from "ioredis-mock";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { serveWeb } from "../lib/serve-web.ts";
import { emulatorBackend } from "../local-store/backends.ts";
import { startLocalStore } from "../local-store/store.ts";
import { createUpstashRestHandler } from "../local-store/upstash-rest.ts";
import { describeFigures, measure, type Figures } from "./stats.ts";

const clients = 100;
const lead = "x".repeat(2_000);

/**
 * The local store's cost per operation, in-process over loopback as the functions reach it: one quota check (the
 * limiter's consume, one EVALSHA of @upstash/ratelimit's script) and one 2 KB write (a lead's SET), on a new store and
 * on one already holding 1,000 such leads. The baseline is the same emulator behind the same REST protocol keeping
 * nothing on disk, so the difference is what durability costs. The checks rotate over 100 client addresses, all within
 * their quota. CPU is the process's (client, protocol and store together) per operation.
 */
export default async function storeBench() {
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-store-bench-"));
  const local = await startLocalStore({ token: "bench", snapshotFile: join(dir, "store.json") });
  const memory = await serveWeb(
    createUpstashRestHandler({ token: "bench", backend: emulatorBackend(new RedisMock({ host: `bench-${randomUUID()}` })) }),
  );
  try {
    const figures = new Map<string, Figures>();
    // Warm both paths first, so the row measured first does not pay for the JIT.
    for (const url of [local.url, memory.url]) {
      const limiter = upstashLimiter(new Redis({ url, token: "bench", enableTelemetry: false }), { cacheBlocked: false });
      await measure(() => limiter.consume("public-api", "198.51.100.1"), { warmup: 300, count: 1 });
    }
    for (const held of [0, 1_000]) {
      for (const [where, url] of [
        ["local store", local.url],
        ["memory only", memory.url],
      ] as const) {
        const redis = new Redis({ url, token: "bench", enableTelemetry: false });
        if (held > 0) await redis.mset(Object.fromEntries(Array.from({ length: held }, (_, i) => [`lead:bench-${i}`, lead])));
        const limiter = upstashLimiter(redis, { cacheBlocked: false });
        let i = 0;
        const quota = await measure(() => limiter.consume("public-api", `203.0.113.${i++ % clients}`));
        figures.set(`quota check, ${where}, ${held} leads held`, quota);
        const write = await measure(() => redis.set(`lead:bench-${i++ % Math.max(held, 1)}`, lead));
        figures.set(`2 KB SET, ${where}, ${held} leads held`, write);
      }
    }
    for (const [label, f] of figures) console.log(`${describeFigures(label, f)}   CPU ${f.cpuPerRun.toFixed(2)} ms`);
    const added = (what: string, held: number) =>
      (figures.get(`${what}, local store, ${held} leads held`)!.p50 - figures.get(`${what}, memory only, ${held} leads held`)!.p50).toFixed(
        3,
      );
    for (const held of [0, 1_000])
      console.log(
        `${held} leads held: durability adds p50 ${added("quota check", held)} ms to a quota check, ${added("2 KB SET", held)} ms to a write`,
      );
  } finally {
    await memory.close();
    await local.close();
    await rm(dir, { recursive: true, force: true });
  }
}
