import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Backend } from "./upstash-rest.ts";

/** One key as it is written to disk; expires_at is absolute (ms since the epoch) so a restart keeps TTLs honest. */
interface SavedKey {
  key: string;
  type: "string" | "hash" | "list" | "set" | "zset";
  /** A string, or the flat reply of HGETALL, LRANGE, SMEMBERS or ZRANGE WITHSCORES. */
  value: string | string[];
  expires_at: number | null;
}

interface Snapshot {
  format: "frontdoor-local-store/1";
  saved_at: string;
  keys: SavedKey[];
}

const readers: Record<SavedKey["type"], (key: string) => (string | number)[]> = {
  string: (key) => ["GET", key],
  hash: (key) => ["HGETALL", key],
  list: (key) => ["LRANGE", key, 0, -1],
  set: (key) => ["SMEMBERS", key],
  zset: (key) => ["ZRANGE", key, 0, -1, "WITHSCORES"],
};

export async function saveSnapshot(backend: Backend, file: string): Promise<number> {
  const keys = (await backend.exec(["KEYS", "*"])) as string[];
  const saved: SavedKey[] = [];
  for (const key of keys) {
    const type = (await backend.exec(["TYPE", key])) as SavedKey["type"] | "none";
    if (type === "none" || !(type in readers)) continue;
    const pttl = (await backend.exec(["PTTL", key])) as number;
    if (pttl === -2) continue;
    saved.push({
      key,
      type,
      value: (await backend.exec(readers[type](key))) as SavedKey["value"],
      expires_at: pttl > 0 ? Date.now() + pttl : null,
    });
  }
  const snapshot: Snapshot = { format: "frontdoor-local-store/1", saved_at: new Date().toISOString(), keys: saved };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(snapshot));
  await rename(`${file}.tmp`, file);
  return saved.length;
}

export async function loadSnapshot(backend: Backend, file: string): Promise<number> {
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(await readFile(file, "utf8")) as Snapshot;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw new Error(`The local store's snapshot ${file} cannot be read (${(error as Error).message}); move it away to start empty.`);
  }
  if (snapshot.format !== "frontdoor-local-store/1") throw new Error(`${file} is not a local store snapshot`);
  let restored = 0;
  for (const { key, type, value, expires_at } of snapshot.keys) {
    if (expires_at !== null && expires_at <= Date.now()) continue;
    if (type === "string") await backend.exec(["SET", key, value as string]);
    if (type === "hash") await backend.exec(["HSET", key, ...(value as string[])]);
    if (type === "list") await backend.exec(["RPUSH", key, ...(value as string[])]);
    if (type === "set") await backend.exec(["SADD", key, ...(value as string[])]);
    if (type === "zset") {
      const flat = value as string[];
      const pairs = flat.flatMap((_, i) => (i % 2 === 0 ? [flat[i + 1]!, flat[i]!] : []));
      await backend.exec(["ZADD", key, ...pairs]);
    }
    if (expires_at !== null) await backend.exec(["PEXPIREAT", key, expires_at]);
    restored += 1;
  }
  return restored;
}
