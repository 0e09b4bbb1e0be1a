import { randomUUID } from "node:crypto";
import RedisMock from "ioredis-mock";
import { serveWeb } from "../lib/serve-web.ts";
import { emulatorBackend } from "./backends.ts";
import { loadSnapshot, saveSnapshot } from "./snapshot.ts";
import { createUpstashRestHandler, type Command } from "./upstash-rest.ts";

export interface LocalStoreOptions {
  token: string;
  /** Where the data is kept between runs; the store saves at most once a second, and on close. */
  snapshotFile: string;
  port?: number;
  onCommand?: (command: Command) => void;
}

export interface LocalStore {
  url: string;
  token: string;
  /** Number of keys restored from the snapshot at start. */
  restored: number;
  close(): Promise<void>;
}

const readOnly = new Set([
  "GET",
  "MGET",
  "EXISTS",
  "TTL",
  "PTTL",
  "TYPE",
  "KEYS",
  "SCAN",
  "HGET",
  "HGETALL",
  "HMGET",
  "LRANGE",
  "SMEMBERS",
  "ZRANGE",
  "PING",
]);

/**
 * The local runtime's stand-in for Upstash: an in-memory Redis emulator behind the Upstash REST protocol,
 * in its own process so every function call and the edge functions share it, saved under .data/.
 */
export async function startLocalStore({ token, snapshotFile, port = 0, onCommand }: LocalStoreOptions): Promise<LocalStore> {
  // A host of its own: ioredis-mock otherwise shares one keyspace between instances in a process.
  const backend = emulatorBackend(new RedisMock({ host: `local-store-${randomUUID()}` }));
  const restored = await loadSnapshot(backend, snapshotFile);
  let dirty = false;
  const handler = createUpstashRestHandler({
    token,
    backend,
    onCommand(command) {
      if (!readOnly.has(String(command[0]).toUpperCase())) dirty = true;
      onCommand?.(command);
    },
  });
  const server = await serveWeb(handler, { port });

  let saving = Promise.resolve();
  const save = () => {
    if (!dirty) return saving;
    dirty = false;
    saving = saving
      .then(() => saveSnapshot(backend, snapshotFile))
      .then(
        () => undefined,
        (error: unknown) => console.error("local store: snapshot failed:", error),
      );
    return saving;
  };
  const timer = setInterval(save, 1000);
  timer.unref();

  return {
    url: server.url,
    token,
    restored,
    async close() {
      clearInterval(timer);
      await server.close();
      dirty = true;
      await save();
    },
  };
}
