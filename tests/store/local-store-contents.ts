import type { Backend } from "../../scripts/local-store/upstash-rest.ts";

/** Every key with its type, its value as the snapshot reads it, and its remaining time to live. */
export async function contents(backend: Backend) {
  const read = { string: "GET", hash: "HGETALL", list: "LRANGE", set: "SMEMBERS", zset: "ZRANGE" } as const;
  const keys = ((await backend.exec(["KEYS", "*"])) as string[]).sort();
  const result: Record<string, { type: string; value: unknown; pttl: number }> = {};
  for (const key of keys) {
    const type = (await backend.exec(["TYPE", key])) as keyof typeof read;
    const extra = type === "list" || type === "zset" ? [0, -1, ...(type === "zset" ? ["WITHSCORES"] : [])] : [];
    let value = await backend.exec([read[type], key, ...extra]);
    if (type === "set") value = (value as string[]).sort();
    result[key] = { type, value, pttl: (await backend.exec(["PTTL", key])) as number };
  }
  return result;
}

/** What Redis itself would hold: the emulator keeps a collection whose last member was removed, Redis deletes it. */
export const withoutEmpty = (keys: Awaited<ReturnType<typeof contents>>) =>
  Object.fromEntries(Object.entries(keys).filter(([, { value }]) => !(Array.isArray(value) && value.length === 0)));
