import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";

/** A local store of one test file's own, in a folder of its own: closed and removed once the file's tests are done. */
export async function fileLocalStore(): Promise<{ url: string; token: string; redis: Redis }> {
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-file-store-"));
  const local = await startLocalStore({ token: "t", snapshotFile: join(dir, "store.json") });
  afterAll(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { url: local.url, token: "t", redis: new Redis({ url: local.url, token: "t", enableTelemetry: false }) };
}
