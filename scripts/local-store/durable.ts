import type { EmulatorBackend } from "./backends.ts";
import { LogWriter, readLog, type LogRecord } from "./log.ts";
import { readKey, readSnapshot, restoreKeys, saveSnapshot, UnreadableSnapshotError, type SavedKey } from "./snapshot.ts";
import type { Backend, Command } from "./upstash-rest.ts";

/** Commands that change no key: run at once, never logged. */
const readOnly = new Set(
  [
    "GET MGET STRLEN GETRANGE EXISTS TTL PTTL EXPIRETIME PEXPIRETIME TYPE KEYS SCAN DBSIZE RANDOMKEY",
    "HGET HGETALL HMGET HEXISTS HLEN HKEYS HVALS HSTRLEN HSCAN LRANGE LLEN LINDEX LPOS",
    "SMEMBERS SCARD SISMEMBER SMISMEMBER SRANDMEMBER SSCAN SINTER SUNION SDIFF",
    "ZRANGE ZRANGEBYSCORE ZRANGEBYLEX ZREVRANGE ZREVRANGEBYSCORE ZCARD ZCOUNT ZLEXCOUNT ZSCORE ZMSCORE ZRANK ZREVRANK ZSCAN",
    "PING ECHO TIME SCRIPT",
  ].flatMap((line) => line.split(" ")),
);
/** Commands that change keys they do not name: the store saves a whole snapshot instead of logging them. */
const keyspaceWide = new Set(["FLUSHALL", "FLUSHDB", "SWAPDB"]);

const nameOf = (command: Command) => String(command[0]).toUpperCase();

/**
 * The keys a command names: a script's KEYS, else its first argument (every other write command's first key). The
 * emulator reports the rest (see onKeyModified); naming them too covers a change of expiry alone.
 */
function namedKeys(command: Command): string[] {
  if (nameOf(command).startsWith("EVAL")) return command.slice(3, 3 + Number(command[2])).map(String);
  return command.length > 1 ? [String(command[1])] : [];
}

export interface DurableOptions {
  snapshotFile: string;
  logFile: string;
  /** The generation of the snapshot the store was restored from. */
  generation: number;
  /** The log is compacted into the snapshot once it holds this many bytes, or as many as the last snapshot if more. */
  compactAfterBytes?: number;
  warn?: (message: string) => void;
}

export interface DurableBackend extends Backend {
  /** Saves a snapshot of every key and empties the log. */
  compact(): Promise<void>;
  /** Compacts a last time and closes the log: later writes are refused. */
  close(): Promise<void>;
}

/**
 * Restores a store from its snapshot and the log of the writes acknowledged since. Returns how many keys were restored
 * and the snapshot's generation. Throws UnreadableSnapshotError, restoring nothing, when either file cannot be read.
 */
export async function loadStore(
  backend: Backend,
  { snapshotFile, logFile, warn = console.warn }: Pick<DurableOptions, "snapshotFile" | "logFile" | "warn">,
): Promise<{ restored: number; generation: number }> {
  const snapshot = await readSnapshot(snapshotFile);
  const log = await readLog(logFile);
  const generation = snapshot?.generation ?? 0;
  const keys = new Map<string, SavedKey>(snapshot?.keys.map((entry) => [entry.key, entry]));
  if (log?.torn)
    warn(
      `local store: the last record of ${logFile} was incomplete (the process stopped while writing it, before that ` +
        `write was acknowledged); it was left out.`,
    );
  const records = log?.records ?? [];
  const follows = log?.generation ?? generation;
  if (records.length > 0 && follows > generation) {
    const found = snapshot ? `${snapshotFile} is of generation ${generation}` : `there is no ${snapshotFile}`;
    throw new UnreadableSnapshotError(
      logFile,
      `its records follow the snapshot of generation ${follows}, but ${found} (was another snapshot put in its place?)`,
      "log",
    );
  }
  // An older generation's records are already in the snapshot: a compaction stopped before it emptied the log.
  if (follows === generation)
    for (const record of records) for (const entry of record.keys) "deleted" in entry ? keys.delete(entry.key) : keys.set(entry.key, entry);
  return { restored: await restoreKeys(backend, keys.values()), generation };
}

/**
 * The emulator made durable: every write is answered only after one log record holding the resulting image of each key
 * it touched (absolute expiry times; a tombstone for a key it deleted) has been written to the log file, so replaying
 * the log over the snapshot gives the acknowledged state, whenever it is replayed. Writes run one at a time, each with
 * its record, so the log's order is the order the writes took effect. The log is compacted into a new snapshot at the
 * start, when it has grown as large as the snapshot (at least compactAfterBytes), and at close.
 */
export async function durable(
  emulator: EmulatorBackend,
  { snapshotFile, logFile, generation, compactAfterBytes = 1 << 20, warn = console.warn }: DurableOptions,
): Promise<DurableBackend> {
  let touched: Set<string> | undefined;
  emulator.onKeyModified((key) => touched?.add(key));

  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };

  // A snapshot saved, then the log emptied: a crash between the two leaves a log of an older generation, which the
  // next start leaves out. Should the log fail to empty, it takes no record until a compaction succeeds.
  let snapshotBytes = 0;
  let log: LogWriter | undefined;
  let closed = false;
  const compact = async () => {
    ({ bytes: snapshotBytes } = await saveSnapshot(emulator, snapshotFile, { generation: generation + 1 }));
    generation += 1;
    if (log) log.reset(generation);
    else log = new LogWriter(logFile, generation);
  };
  await compact();

  const compactUnlessClosed = () =>
    serially(async () => {
      if (!closed) await compact();
    });
  let compactAt = Math.max(compactAfterBytes, snapshotBytes);
  const compactWhenDue = (writer: LogWriter) => {
    if (writer.bytes < compactAt) return;
    compactAt = Infinity;
    compactUnlessClosed().then(
      () => (compactAt = Math.max(compactAfterBytes, snapshotBytes)),
      (error: unknown) => {
        compactAt = writer.bytes + Math.max(compactAfterBytes, snapshotBytes);
        warn(`local store: compacting the log failed (the writes stay in ${logFile}): ${String(error)}`);
      },
    );
  };

  const write = <T>(commands: Command[], run: () => Promise<T>): Promise<T> =>
    serially(async () => {
      if (closed || !log) throw new Error("ERR the local store is closed");
      if (log.failure) await compact();
      touched = new Set(commands.flatMap(namedKeys));
      const keys = touched;
      // A failed command may have changed keys before it failed (a script, a transaction): it is logged all the same.
      const outcome = await run().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      touched = undefined;
      if (commands.some((command) => keyspaceWide.has(nameOf(command)))) await compact();
      else {
        const record: LogRecord = { keys: [] };
        for (const key of keys) record.keys.push((await readKey(emulator, key)) ?? { key, deleted: true });
        log.append(record);
        compactWhenDue(log);
      }
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    });

  return {
    exec: (command) => (readOnly.has(nameOf(command)) ? emulator.exec(command) : write([command], () => emulator.exec(command))),
    transaction: (commands) =>
      commands.every((command) => readOnly.has(nameOf(command)))
        ? emulator.transaction(commands)
        : write(commands, () => emulator.transaction(commands)),
    compact: compactUnlessClosed,
    close: () =>
      serially(async () => {
        if (closed) return;
        closed = true;
        try {
          await compact();
        } finally {
          await log?.close();
        }
      }),
  };
}
