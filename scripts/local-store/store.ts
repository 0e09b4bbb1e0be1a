import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import RedisMock from "ioredis-mock";
import { serveWeb } from "../lib/serve-web.ts";
import { emulatorBackend } from "./backends.ts";
import { durable, loadStore } from "./durable.ts";
import { keepAside } from "./keep-aside.ts";
import { logFileOf } from "./log.ts";
import { UnreadableSnapshotError } from "./snapshot.ts";
import { createUpstashRestHandler, type Command } from "./upstash-rest.ts";

export interface LocalStoreOptions {
  token: string;
  /**
   * Where the data is kept: a snapshot in this file, and beside it (store.json's store.log) the log of every write
   * acknowledged since, each on its way to the disk before the store answers it.
   */
  snapshotFile: string;
  /**
   * A snapshot or log it cannot read stops the store either way. "keep-aside" (npm start) first moves both files next
   * to themselves under new names, so the next start begins empty and the data can be repaired; "leave" touches nothing.
   */
  unreadableSnapshot?: "keep-aside" | "leave";
  port?: number;
  onCommand?: (command: Command) => void;
  /** The log is compacted into the snapshot once it holds this many bytes (1 MiB), or as many as the snapshot if more. */
  compactAfterBytes?: number;
  /** Where notes go, such as an incomplete last log record left out at the start. */
  warn?: (message: string) => void;
}

export interface LocalStore {
  url: string;
  token: string;
  /** Number of keys restored from the snapshot and its log at start. */
  restored: number;
  close(): Promise<void>;
}

/** What to say when the store's files cannot be read, after moving them aside (or not). */
async function unreadable(error: UnreadableSnapshotError, files: string[], what: "keep-aside" | "leave"): Promise<Error> {
  const present = files.filter((file) => existsSync(file));
  const others = present.filter((file) => file !== error.file);
  if (what === "leave") {
    const away = present.length > 1 ? `move ${present.join(" and ")} away` : "move it away";
    return new Error(
      `${error.message}\nNothing was changed. Repair the file, or ${away} to start with an empty store ` +
        `(npm start does that itself, and says where it put ${present.length > 1 ? "them" : "it"}).`,
    );
  }
  const aside = await keepAside(present);
  const asideOf = (file: string) => aside[present.indexOf(file)]!;
  const along = others.map((file) => `, and ${file}, which belongs with it, to ${asideOf(file)}`).join("");
  const back = present.map((file) => `${asideOf(file)} to ${file}`).join(" and ");
  return new Error(
    `${error.message}\nIt was moved to ${asideOf(error.file)}${along}, so nothing in ${others.length ? "them" : "it"} is lost; ` +
      `the next start begins with an empty store.\nTo get its data back: stop the runtime, repair ${asideOf(error.file)}, ` +
      `and move ${present.length > 1 ? `them back (${back})` : `it back to ${error.file}`} (this replaces whatever was stored since).`,
  );
}

/**
 * The local runtime's stand-in for Upstash: an in-memory Redis emulator behind the Upstash REST protocol, in its own
 * process so every function call and the edge functions share it, kept on disk under .data/ (durable.ts).
 */
export async function startLocalStore({
  token,
  snapshotFile,
  unreadableSnapshot = "leave",
  port = 0,
  onCommand,
  compactAfterBytes,
  warn,
}: LocalStoreOptions): Promise<LocalStore> {
  // A host of its own: ioredis-mock otherwise shares one keyspace between instances in a process.
  const emulator = emulatorBackend(new RedisMock({ host: `local-store-${randomUUID()}` }));
  const logFile = logFileOf(snapshotFile);
  const { restored, generation } = await loadStore(emulator, { snapshotFile, logFile, warn }).catch(async (error: unknown) => {
    if (!(error instanceof UnreadableSnapshotError)) throw error;
    throw await unreadable(error, [snapshotFile, logFile], unreadableSnapshot);
  });
  const backend = await durable(emulator, { snapshotFile, logFile, generation, compactAfterBytes, warn });
  const server = await serveWeb(createUpstashRestHandler({ token, backend, onCommand }), { port });
  return {
    url: server.url,
    token,
    restored,
    async close() {
      await server.close();
      await backend.close();
    },
  };
}
