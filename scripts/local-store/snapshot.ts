import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import type { Backend, Command } from "./upstash-rest.ts";

const format = "frontdoor-local-store/1";

type KeyType = "string" | "hash" | "list" | "set" | "zset";

/** One key as it is written to disk; expires_at is absolute (ms since the epoch) so a restart keeps TTLs honest. */
export interface SavedKey {
  key: string;
  type: KeyType;
  /** A string, or the flat reply of HGETALL, LRANGE, SMEMBERS or ZRANGE WITHSCORES; never an empty collection. */
  value: string | string[];
  expires_at: number | null;
}

export interface Snapshot {
  format: typeof format;
  saved_at: string;
  /** Counts the snapshots written: the log's records apply to the snapshot of their generation (0 when absent). */
  generation?: number;
  keys: SavedKey[];
}

/**
 * A file of the store it cannot restore from: a snapshot that is not JSON, of another format, or with a key entry of
 * the wrong shape; or a log with a damaged record (see log.ts).
 */
export class UnreadableSnapshotError extends Error {
  readonly file: string;
  readonly reason: string;

  constructor(file: string, reason: string, part: "snapshot" | "log" = "snapshot") {
    super(`The local store's ${part} ${file} cannot be read: ${reason}.`);
    this.file = file;
    this.reason = reason;
  }
}

const readers: Record<KeyType, (key: string) => Command> = {
  string: (key) => ["GET", key],
  hash: (key) => ["HGETALL", key],
  list: (key) => ["LRANGE", key, 0, -1],
  set: (key) => ["SMEMBERS", key],
  zset: (key) => ["ZRANGE", key, 0, -1, "WITHSCORES"],
};

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");
const shapes: Record<KeyType, { fits: (value: unknown) => boolean; description: string }> = {
  string: { fits: (value) => typeof value === "string", description: "a string" },
  hash: { fits: (value) => isStrings(value) && value.length % 2 === 0, description: "a flat list of field, value strings" },
  list: { fits: isStrings, description: "a list of strings" },
  set: { fits: isStrings, description: "a list of strings" },
  zset: { fits: (value) => isStrings(value) && value.length % 2 === 0, description: "a flat list of member, score strings" },
};
const isKeyType = (type: unknown): type is KeyType => typeof type === "string" && Object.hasOwn(shapes, type);

/** Why an entry cannot be restored, or undefined when it can. */
export function entryProblem(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return "it is not an object";
  const { key, type, value, expires_at } = entry as Record<string, unknown>;
  if (typeof key !== "string") return "its key is not a string";
  if (!isKeyType(type)) return `its type ${JSON.stringify(type)} is not one of ${Object.keys(shapes).join(", ")}`;
  if (!shapes[type].fits(value)) return `the value of a ${type} must be ${shapes[type].description}`;
  if (expires_at !== null && !Number.isFinite(expires_at)) return "its expires_at is neither null nor a time in ms since the epoch";
  return undefined;
}

/** The snapshot in `text`, or why it cannot be restored. */
export function parseSnapshot(text: string): Snapshot | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `it is not JSON (${(error as Error).message})` };
  }
  const marker = parsed !== null && typeof parsed === "object" ? (parsed as { format?: unknown }).format : undefined;
  if (marker === undefined) return { problem: `it is not an object with the marker "format": "${format}"` };
  if (marker !== format) return { problem: `its format is ${JSON.stringify(marker)}, not "${format}"` };
  const { keys, generation } = parsed as { keys?: unknown; generation?: unknown };
  if (!Array.isArray(keys)) return { problem: `its "keys" is not a list` };
  if (generation !== undefined && !(Number.isSafeInteger(generation) && (generation as number) >= 0))
    return { problem: `its "generation" is not a whole number` };
  const seen = new Set<string>();
  for (const [index, entry] of keys.entries()) {
    const problem = entryProblem(entry);
    const key = (entry as { key?: unknown } | null)?.key;
    const name = `keys[${index}]${typeof key === "string" ? ` (${JSON.stringify(key)})` : ""}`;
    if (problem) return { problem: `${name}: ${problem}` };
    if (seen.has(key as string)) return { problem: `${name}: the key appears more than once` };
    seen.add(key as string);
  }
  return parsed as Snapshot;
}

export const isEmpty = (value: string | string[]) => Array.isArray(value) && value.length === 0;

/**
 * One key as it stands, or undefined when there is nothing to keep: gone, expired, or an empty collection (Redis has
 * none; the emulator keeps a sorted set whose last member was removed). The expiry is read as an absolute time. A key
 * changed between the reads is left out: the write that changed it is logged after it.
 */
export async function readKey(backend: Backend, key: string): Promise<SavedKey | undefined> {
  const type = (await backend.exec(["TYPE", key])) as string;
  if (type === "none") return undefined;
  if (!isKeyType(type)) throw new Error(`the local store cannot save ${key}, a ${type}`);
  const expiresAt = (await backend.exec(["PEXPIRETIME", key])) as number;
  if (expiresAt === -2) return undefined;
  let value: string | string[] | null;
  try {
    value = (await backend.exec(readers[type](key))) as string | string[] | null;
  } catch (error) {
    if ((await backend.exec(["TYPE", key])) !== type) return undefined;
    throw error;
  }
  if (value === null || isEmpty(value)) return undefined;
  const saved: SavedKey = { key, type, value, expires_at: expiresAt >= 0 ? expiresAt : null };
  const problem = entryProblem(saved);
  if (problem) throw new Error(`the local store cannot save ${key}: ${problem}`);
  return saved;
}

/**
 * Writes `text` to `file` so that a crash or a power loss at any moment leaves either the old file or the new one,
 * whole: a temporary file, flushed to the disk, renamed over `file`, and the rename itself flushed.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = await open(`${file}.tmp`, "w");
  try {
    await temporary.writeFile(text);
    await temporary.sync();
  } finally {
    await temporary.close();
  }
  await rename(`${file}.tmp`, file);
  // Flushing the folder makes the rename survive a power loss; Windows cannot open a folder, and needs none.
  const folder = await open(dirname(file), "r").catch(() => undefined);
  if (folder) {
    await folder.sync().catch(() => undefined);
    await folder.close();
  }
}

/** Writes every key to `file` (whole, see replaceFile); returns how many keys and bytes were written. */
export async function saveSnapshot(
  backend: Backend,
  file: string,
  { generation = 0, now = Date.now }: { generation?: number; now?: () => number } = {},
): Promise<{ keys: number; bytes: number }> {
  const keys = (await backend.exec(["KEYS", "*"])) as string[];
  const saved: SavedKey[] = [];
  for (const key of keys) {
    const entry = await readKey(backend, key);
    if (entry) saved.push(entry);
  }
  const snapshot: Snapshot = { format, saved_at: new Date(now()).toISOString(), generation, keys: saved };
  const text = JSON.stringify(snapshot);
  await replaceFile(file, text);
  return { keys: saved.length, bytes: Buffer.byteLength(text) };
}

const chunk = (items: string[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
const writers: Record<Exclude<KeyType, "string">, string> = { hash: "HSET", list: "RPUSH", set: "SADD", zset: "ZADD" };

/** The commands that recreate one key: its value (in parts, so a large collection stays within argument limits), then its expiry. */
function restoreCommands({ key, type, value, expires_at }: SavedKey): Command[] {
  const commands: Command[] = [];
  if (type === "string") commands.push(["SET", key, value as string]);
  else {
    const flat = value as string[];
    const items = type === "zset" ? flat.flatMap((_, i) => (i % 2 === 0 ? [flat[i + 1]!, flat[i]!] : [])) : flat;
    for (const part of chunk(items, 1000)) commands.push([writers[type], key, ...part]);
  }
  if (expires_at !== null) commands.push(["PEXPIREAT", key, expires_at]);
  return commands;
}

/** The snapshot in `file`, or undefined when there is none. Throws UnreadableSnapshotError when any part of it cannot be restored. */
export async function readSnapshot(file: string): Promise<Snapshot | undefined> {
  const text = await readIfPresent(file, "snapshot");
  if (text === undefined) return undefined;
  const snapshot = parseSnapshot(text);
  if ("problem" in snapshot) throw new UnreadableSnapshotError(file, snapshot.problem);
  return snapshot;
}

/**
 * Restores keys into an empty backend and returns how many. Keys that expired while the store was stopped and empty
 * collections (which earlier versions saved) are skipped.
 */
export async function restoreKeys(backend: Backend, keys: Iterable<SavedKey>, now = Date.now): Promise<number> {
  let restored = 0;
  for (const entry of keys) {
    if ((entry.expires_at !== null && entry.expires_at <= now()) || isEmpty(entry.value)) continue;
    for (const command of restoreCommands(entry)) await backend.exec(command);
    restored += 1;
  }
  return restored;
}

/**
 * Restores the snapshot in `file` alone into an empty backend; no file is an empty store. Throws
 * UnreadableSnapshotError, restoring nothing, when any part of the file cannot be restored.
 */
export async function loadSnapshot(backend: Backend, file: string, now = Date.now): Promise<number> {
  const snapshot = await readSnapshot(file);
  return snapshot ? restoreKeys(backend, snapshot.keys, now) : 0;
}

/** A file of the store's (`what`: its snapshot or its log), or undefined when there is none yet. */
export async function readIfPresent(file: string, what: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`The local store's ${what} ${file} cannot be opened: ${(error as Error).message}`);
  }
}
