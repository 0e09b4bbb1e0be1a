import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Env } from "../../src/config/env.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { redisFromEnv } from "../../src/store/node-requester.ts";
import { edgeRedisFromEnv } from "../../src/store/redis.ts";
import { startLocalStore } from "../local-store/store.ts";

/**
 * The local store in a process of its own, as `npm start` runs it beside the functions and as Upstash is remote in
 * production: a handler bench then pays the store's round trip but not the store's own CPU, which in-process would
 * run on the handler's thread.
 */
export async function startStoreProcess() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`the store process exited (${code})`)));
  });
  const env: Env = (name) => ({ UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: "bench" })[name];
  return {
    url,
    token: "bench",
    /** The store's client as the functions build it (node:http). */
    functionsRedis: () => redisFromEnv(settingsFrom(env)),
    /** The store's client as the edge builds it (the Upstash client's fetch). */
    edgeRedis: () => edgeRedisFromEnv(settingsFrom(env)),
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-bench-store-"));
  const store = await startLocalStore({ token: "bench", snapshotFile: join(dir, "store.json") });
  process.stdout.write(`${store.url}\n`);
  process.once(
    "SIGTERM",
    () =>
      void store
        .close()
        .then(() => rm(dir, { recursive: true, force: true }))
        .then(() => process.exit(0)),
  );
}
