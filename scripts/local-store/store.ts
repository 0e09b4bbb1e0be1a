import { randomUUID } from "node:crypto";
import RedisMock from "ioredis-mock";
import { serveWeb } from "../lib/serve-web.ts";
import { emulatorBackend } from "./backends.ts";
import { keepAside } from "./keep-aside.ts";
import { loadSnapshot, saveSnapshot, UnreadableSnapshotError } from "./snapshot.ts";
import { createUpstashRestHandler, type Backend, type Command } from "./upstash-rest.ts";

export interface LocalStoreOptions {
  token: string;
  /** Where the data is kept: every write is on disk here before the store answers it. */
  snapshotFile: string;
  /**
   * A snapshot it cannot read stops the store either way. "keep-aside" (npm start) first moves the file next to
   * itself under a new name, so the next start begins empty and the data can be repaired; "leave" touches nothing.
   */
  unreadableSnapshot?: "keep-aside" | "leave";
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
  "ZCARD",
  "ZSCORE",
  "PING",
]);
const writes = (command: Command) => !readOnly.has(String(command[0]).toUpperCase());

/**
 * Group commit: a write is answered only after a snapshot that started after it has reached the disk. Writes that
 * arrive together share one snapshot, so a burst costs a few file writes, not one per command.
 */
function durable(backend: Backend, snapshotFile: string): Backend & { flush(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  const flush = () => {
    queued ??= running.then(async () => {
      queued = undefined;
      await saveSnapshot(backend, snapshotFile);
    });
    running = queued.catch((error: unknown) => console.error("local store: snapshot failed:", error));
    return queued;
  };
  return {
    flush,
    async exec(command) {
      const result = await backend.exec(command);
      if (writes(command)) await flush();
      return result;
    },
    async transaction(commands) {
      const results = await backend.transaction(commands);
      if (commands.some(writes)) await flush();
      return results;
    },
  };
}

/**
 * The local runtime's stand-in for Upstash: an in-memory Redis emulator behind the Upstash REST protocol, in its own
 * process so every function call and the edge functions share it, kept on disk under .data/.
 */
export async function startLocalStore({
  token,
  snapshotFile,
  unreadableSnapshot = "leave",
  port = 0,
  onCommand,
}: LocalStoreOptions): Promise<LocalStore> {
  // A host of its own: ioredis-mock otherwise shares one keyspace between instances in a process.
  const emulator = emulatorBackend(new RedisMock({ host: `local-store-${randomUUID()}` }));
  const restored = await loadSnapshot(emulator, snapshotFile).catch(async (error: unknown) => {
    if (!(error instanceof UnreadableSnapshotError)) throw error;
    if (unreadableSnapshot === "leave") {
      throw new Error(
        `${error.message}\nNothing was changed. Repair the file, or move it away to start with an empty store ` +
          `(npm start does that itself, and says where it put it).`,
      );
    }
    const aside = await keepAside(snapshotFile);
    throw new Error(
      `${error.message}\nIt was moved to ${aside}, so nothing in it is lost; the next start begins with an empty store.\n` +
        `To get its data back: stop the runtime, repair ${aside}, and move it back to ${snapshotFile} ` +
        `(this replaces whatever was stored since).`,
    );
  });
  const backend = durable(emulator, snapshotFile);
  const server = await serveWeb(createUpstashRestHandler({ token, backend, onCommand }), { port });
  return {
    url: server.url,
    token,
    restored,
    async close() {
      await server.close();
      await backend.flush();
    },
  };
}
