import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import RedisMock from "ioredis-mock";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emulatorBackend } from "../../scripts/local-store/backends.ts";
import { keepAside } from "../../scripts/local-store/keep-aside.ts";
import { loadSnapshot, saveSnapshot, UnreadableSnapshotError, type SavedKey } from "../../scripts/local-store/snapshot.ts";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import type { Backend } from "../../scripts/local-store/upstash-rest.ts";
import { contents } from "./local-store-contents.ts";
import { storeFolder } from "../support/scratch.ts";

/** The local store's snapshot: what `npm start` writes to .data/store.json and restores at the next start. */
const dir = await storeFolder("frontdoor-snapshot-");
afterAll(() => rm(dir, { recursive: true, force: true }));

const t0 = Date.parse("2026-03-01T12:00:00Z");
beforeEach(() => {
  // The emulator expires keys by Date.now(), so moving the clock expires them without waiting.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(t0);
});
afterEach(() => vi.useRealTimers());

const emulator = () => emulatorBackend(new RedisMock({ host: `snapshot-test-${randomUUID()}` }));
const fileFor = (name: string) => join(dir, `${name}-${randomUUID()}.json`);
const snapshotKeys = async (file: string) => (JSON.parse(await readFile(file, "utf8")) as { keys: SavedKey[] }).keys;
const writeSnapshot = (file: string, keys: unknown[]) =>
  writeFile(file, JSON.stringify({ format: "frontdoor-local-store/1", saved_at: new Date(t0).toISOString(), keys }));

describe("saving and restoring", () => {
  it("keeps every key type with its TTL, and writes no empty collection and no expired key", async () => {
    const source = emulator();
    await source.exec(["SET", "string", "Zoë → 東京 ✓"]);
    await source.exec(["SET", "string:empty", ""]);
    await source.exec(["SET", "string:ttl", "soon", "PX", 60_000]);
    await source.exec(["HSET", "hash", "a", "1", "b", "two"]);
    await source.exec(["EXPIRE", "hash", 3600]);
    await source.exec(["RPUSH", "list", "c", "a", "b", "a"]);
    await source.exec(["SADD", "set", "x", "y", "z"]);
    await source.exec(["ZADD", "zset", 3, "three", -1.5, "minus", 1e21, "huge", 0, "zero"]);
    await source.exec(["SET", "expired", "gone", "PX", 1000]);
    // The emptied queue of delivered leads, as the emulator keeps it; and empty collections it lets a command make.
    await source.exec(["ZADD", "leads:due", 1, "lead_1"]);
    await source.exec(["ZREM", "leads:due", "lead_1"]);
    await source.exec(["HSET", "hash:empty"]);
    await source.exec(["RPUSH", "list:empty"]);
    await source.exec(["SADD", "set:empty"]);
    for (const key of ["leads:due", "hash:empty", "list:empty", "set:empty"]) expect(await source.exec(["EXISTS", key])).toBe(1);
    vi.setSystemTime(t0 + 2000);

    const file = fileFor("every-type");
    expect((await saveSnapshot(source, file)).keys).toBe(7);
    const saved = await snapshotKeys(file);
    expect(saved.map((k) => k.key).sort()).toEqual(["hash", "list", "set", "string", "string:empty", "string:ttl", "zset"]);
    expect(saved.find((k) => k.key === "string:ttl")?.expires_at).toBe(t0 + 60_000);
    expect(saved.find((k) => k.key === "hash")?.expires_at).toBe(t0 + 3_600_000);

    // What Redis itself would hold: an emptied collection is no key at all.
    const before = await contents(source);
    for (const key of ["leads:due", "hash:empty", "list:empty", "set:empty"]) {
      expect(before[key]?.value).toEqual([]);
      delete before[key];
    }
    const restored = emulator();
    expect(await loadSnapshot(restored, file)).toBe(7);
    expect(await contents(restored)).toEqual(before);
  });

  it("keeps TTLs honest across the time the store was stopped", async () => {
    const source = emulator();
    await source.exec(["SET", "short", "v", "PX", 10_000]);
    await source.exec(["SET", "long", "v", "PX", 60_000]);
    await source.exec(["SET", "forever", "v"]);
    const file = fileFor("ttl");
    await saveSnapshot(source, file);

    vi.setSystemTime(t0 + 45_000);
    const restored = emulator();
    expect(await loadSnapshot(restored, file)).toBe(2);
    expect(await restored.exec(["EXISTS", "short"])).toBe(0);
    expect(await restored.exec(["PTTL", "long"])).toBe(15_000);
    expect(await restored.exec(["PTTL", "forever"])).toBe(-1);
  });

  it("restores a snapshot with empty collections and expired keys, as earlier versions wrote them", async () => {
    const file = fileFor("earlier");
    await writeSnapshot(file, [
      { key: "lead:lead_1", type: "string", value: '{"id":"lead_1"}', expires_at: null },
      { key: "leads", type: "zset", value: ["lead_1", "1772366400000"], expires_at: null },
      { key: "leads:due", type: "zset", value: [], expires_at: null },
      { key: "empty:hash", type: "hash", value: [], expires_at: null },
      { key: "empty:list", type: "list", value: [], expires_at: t0 + 60_000 },
      { key: "empty:set", type: "set", value: [], expires_at: null },
      { key: "brief:same:x", type: "string", value: "lead_1", expires_at: t0 - 1 },
      { key: "rl:window", type: "hash", value: ["count", "3"], expires_at: t0 },
    ]);
    const restored = emulator();
    expect(await loadSnapshot(restored, file)).toBe(2);
    expect(Object.keys(await contents(restored))).toEqual(["lead:lead_1", "leads"]);
    expect(await restored.exec(["ZADD", "leads:due", 5, "lead_2"])).toBe(1);
  });

  it("restores the same store whatever the order of the keys", async () => {
    const keys = [
      { key: "a", type: "list", value: ["1", "2"], expires_at: t0 + 5000 },
      { key: "b", type: "zset", value: ["m", "2", "n", "1"], expires_at: null },
      { key: "c", type: "hash", value: ["f", "v"], expires_at: null },
      { key: "d", type: "string", value: "x", expires_at: t0 + 9000 },
    ];
    const forward = fileFor("forward");
    const backward = fileFor("backward");
    await writeSnapshot(forward, keys);
    await writeSnapshot(backward, [...keys].reverse());
    const [one, two] = [emulator(), emulator()];
    await loadSnapshot(one, forward);
    await loadSnapshot(two, backward);
    expect(await contents(two)).toEqual(await contents(one));
  });

  it("restores a collection too large for one command's arguments", async () => {
    const members = Array.from({ length: 150_000 }, (_, i) => `m${i}`);
    const file = fileFor("large");
    await writeSnapshot(file, [{ key: "big", type: "set", value: members, expires_at: null }]);
    const restored = emulator();
    await loadSnapshot(restored, file);
    expect(await restored.exec(["SCARD", "big"])).toBe(150_000);
  });

  it("leaves out a key deleted between its type and its value being read", async () => {
    const source = emulator();
    await source.exec(["SET", "kept", "v"]);
    await source.exec(["SET", "deleted", "v"]);
    const racing: Backend = {
      ...source,
      async exec(command) {
        if (command[0] === "GET" && command[1] === "deleted") await source.exec(["DEL", "deleted"]);
        return source.exec(command);
      },
    };
    const file = fileFor("race");
    expect((await saveSnapshot(racing, file)).keys).toBe(1);
    expect((await snapshotKeys(file)).map((k) => k.key)).toEqual(["kept"]);
  });

  it("refuses stream commands, whose data the snapshot cannot keep", async () => {
    await expect(emulator().exec(["XADD", "events", "*", "a", "b"])).rejects.toThrow(/does not keep streams/);
  });
});

describe("a snapshot it cannot read", () => {
  const entry = { key: "lead:lead_1", type: "string", value: "{}", expires_at: null };
  /** A good entry, then `bad` as keys[1]. */
  const withEntry = (bad: unknown) => JSON.stringify({ format: "frontdoor-local-store/1", keys: [entry, bad] });
  const cases: [string, string, RegExp][] = [
    ["not JSON", '{"format":"frontdoor-local-store/1","keys":[', /is not JSON/],
    ["an empty file", "", /is not JSON/],
    ["a list", "[]", /not an object with the marker "format": "frontdoor-local-store\/1"/],
    ["another format", JSON.stringify({ format: "frontdoor-local-store/2", keys: [] }), /its format is "frontdoor-local-store\/2"/],
    ["keys that are not a list", JSON.stringify({ format: "frontdoor-local-store/1", keys: {} }), /"keys" is not a list/],
    ["a key entry that is not an object", withEntry("x"), /keys\[1\]: it is not an object/],
    ["a key that is not a string", withEntry({ ...entry, key: 7 }), /keys\[1\]: its key is not a string/],
    ["an unknown type", withEntry({ ...entry, type: "stream" }), /keys\[1\] \("lead:lead_1"\): its type "stream" is not one of/],
    ["a string with no value", withEntry({ ...entry, value: null }), /the value of a string must be a string/],
    ["a sorted set with a member and no score", withEntry({ ...entry, type: "zset", value: ["m"] }), /flat list of member, score strings/],
    ["a hash with a number", withEntry({ ...entry, type: "hash", value: ["f", 1] }), /flat list of field, value strings/],
    ["an expiry that is not a time", withEntry({ ...entry, expires_at: "tomorrow" }), /expires_at is neither null nor a time/],
    ["a key twice", withEntry(entry), /keys\[1\] \("lead:lead_1"\): the key appears more than once/],
  ];
  it.each(cases)("refuses %s, naming the file and the reason, and restores nothing", async (_name, text, reason) => {
    const file = fileFor("unreadable");
    await writeFile(file, text);
    const backend = emulator();
    const error = await loadSnapshot(backend, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableSnapshotError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(reason);
    expect(await backend.exec(["KEYS", "*"])).toEqual([]);
    expect(await readFile(file, "utf8")).toBe(text);
  });
});

describe("starting the local store over a snapshot it cannot read", () => {
  const unreadable = '{"format":"frontdoor-local-store/1","keys":[{"key":"lead:lead_1"';
  const folder = async () => {
    const path = await mkdtemp(join(dir, "data-"));
    await writeFile(join(path, "store.json"), unreadable);
    return path;
  };

  it("by default stops, says what to do, and changes nothing (npm run leads)", async () => {
    const data = await folder();
    const start = startLocalStore({ token: "t", snapshotFile: join(data, "store.json") });
    await expect(start).rejects.toThrow(`The local store's snapshot ${join(data, "store.json")} cannot be read: it is not JSON`);
    await expect(start).rejects.toThrow(/Nothing was changed\. Repair the file, or move it away/);
    expect(await readdir(data)).toEqual(["store.json"]);
    expect(await readFile(join(data, "store.json"), "utf8")).toBe(unreadable);
  });

  it("for npm start, moves it aside, says where and how to restore it, and starts empty the next time", async () => {
    const data = await folder();
    const snapshotFile = join(data, "store.json");
    const error = (await startLocalStore({ token: "t", snapshotFile, unreadableSnapshot: "keep-aside" }).catch((e: unknown) => e)) as Error;
    const aside = join(data, "store.unreadable-2026-03-01T12-00-00Z.json");
    expect(await readdir(data)).toEqual(["store.unreadable-2026-03-01T12-00-00Z.json"]);
    expect(await readFile(aside, "utf8")).toBe(unreadable);
    expect(error.message).toContain(`${snapshotFile} cannot be read: it is not JSON`);
    expect(error.message).toContain(`It was moved to ${aside}, so nothing in it is lost`);
    expect(error.message).toContain(`repair ${aside}, and move it back to ${snapshotFile}`);

    const store = await startLocalStore({ token: "t", snapshotFile, unreadableSnapshot: "keep-aside" });
    expect(store.restored).toBe(0);
    await store.close();
    expect(await readFile(aside, "utf8")).toBe(unreadable);
  });

  it("never replaces a file kept aside earlier", async () => {
    const data = await folder();
    const [first] = await keepAside([join(data, "store.json")]);
    await writeFile(join(data, "store.json"), "second");
    const [second] = await keepAside([join(data, "store.json")]);
    expect(second).toBe(first!.replace(/\.json$/, "-2.json"));
    expect(await readFile(first!, "utf8")).toBe(unreadable);
    expect(await readFile(second!, "utf8")).toBe("second");
  });
});
