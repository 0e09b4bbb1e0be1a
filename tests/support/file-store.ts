import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import type { Command } from "../../scripts/local-store/upstash-rest.ts";
import { realRedisAvailable, startRedisGateway } from "./upstash-gateway.ts";
import { storeFolder } from "./scratch.ts";

export interface DeploymentStore {
  url: string;
  token: string;
  /** Every command the store received, for counting Upstash's paid units. */
  commands: Command[];
  close(): Promise<void>;
}

/**
 * The store a deployment runs on: with a database number, the machine's Redis through the tests' Upstash REST gateway
 * (as CI always has; the database is emptied first and at the end) or the local store when no Redis answers outside CI;
 * with "local", the local store always (in this process, on the test's clock).
 */
export async function startStore(db: number | "local"): Promise<DeploymentStore> {
  if (db !== "local" && (await realRedisAvailable())) return startRedisGateway(db);
  const dir = await storeFolder("frontdoor-store-");
  const commands: Command[] = [];
  const store = await startLocalStore({ token: "t", snapshotFile: join(dir, "store.json"), onCommand: (c) => commands.push(c) });
  return { ...store, commands, close: async () => (await store.close(), await rm(dir, { recursive: true, force: true })) };
}

/** The local store of one test file, closed and its folder removed once the file's tests are done. */
export async function fileLocalStore(): Promise<{ url: string; token: string; redis: Redis }> {
  const store = await startStore("local");
  afterAll(() => store.close());
  return { url: store.url, token: store.token, redis: new Redis({ url: store.url, token: store.token, enableTelemetry: false }) };
}
