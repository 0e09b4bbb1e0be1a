import { randomUUID } from "node:crypto";
import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import RedisMock from "ioredis-mock";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emulatorBackend } from "../../scripts/local-store/backends.ts";
import { durable, loadStore, type DurableBackend } from "../../scripts/local-store/durable.ts";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import type { Backend, Command } from "../../scripts/local-store/upstash-rest.ts";
import { contents, withoutEmpty } from "./local-store-contents.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The local store's log (.data/store.log): a write is answered once its effect is in the log, and a store started over
 * the files a killed process left behind holds every write that was answered.
 */
const root = await storeFolder("frontdoor-log-");
afterAll(() => rm(root, { recursive: true, force: true }));

const t0 = Date.parse("2026-03-01T12:00:00Z");
beforeEach(() => {
  // The emulator expires keys by Date.now(), so moving the clock expires them without waiting.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(t0);
});
afterEach(() => vi.useRealTimers());

const opened: DurableBackend[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
});

const newFolder = () => mkdtemp(join(root, "data-"));
const filesIn = (folder: string) => ({ snapshotFile: join(folder, "store.json"), logFile: join(folder, "store.log") });

/** A store over `folder`, as the local store starts one: restored from the files there, then durable. */
async function open(folder: string, compactAfterBytes?: number) {
  const notes: string[] = [];
  const warn = (note: string) => void notes.push(note);
  const emulator = emulatorBackend(new RedisMock({ host: `log-test-${randomUUID()}` }));
  const { restored, generation } = await loadStore(emulator, { ...filesIn(folder), warn });
  const store = await durable(emulator, { ...filesIn(folder), generation, compactAfterBytes, warn });
  opened.push(store);
  return { store, emulator: emulator as Backend, restored, notes };
}

/**
 * The files as a process killed at this moment leaves them (what it wrote is in the system's cache, so on disk), in a
 * new folder. The log is copied first: should a compaction run between the two copies, the log is older than the
 * snapshot, which holds all of it (a real crash freezes both files at once).
 */
async function crashImage(folder: string): Promise<string> {
  const image = await newFolder();
  await copyFile(join(folder, "store.log"), join(image, "store.log"));
  await copyFile(join(folder, "store.json"), join(image, "store.json"));
  return image;
}

const logLines = async (folder: string) =>
  (await readFile(join(folder, "store.log"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);

describe("a write", () => {
  it("is answered after one log record with the image of every key it touched; the snapshot is not rewritten", async () => {
    const folder = await newFolder();
    const { store } = await open(folder);
    const snapshot = await readFile(join(folder, "store.json"), "utf8");
    await store.exec(["SET", "lead:1", "{}"]);
    await store.exec(["HSET", "task:1", "state", "working"]);
    const script = "redis.call('INCRBY', KEYS[1], 1) redis.call('PEXPIRE', KEYS[1], 60000) redis.call('DEL', KEYS[2]) return 1";
    await store.exec(["EVAL", script, 2, "rl:1", "lead:1"]);
    await store.exec(["GET", "rl:1"]);
    expect(await readFile(join(folder, "store.json"), "utf8")).toBe(snapshot);
    expect(await logLines(folder)).toEqual([
      { format: "frontdoor-local-store-log/1", generation: 1 },
      { keys: [{ key: "lead:1", type: "string", value: "{}", expires_at: null }] },
      { keys: [{ key: "task:1", type: "hash", value: ["state", "working"], expires_at: null }] },
      {
        keys: [
          { key: "rl:1", type: "string", value: "1", expires_at: t0 + 60_000 },
          { key: "lead:1", deleted: true },
        ],
      },
    ]);
  });

  it("closed, as npm start closes it on Ctrl+C, is in the snapshot, and the log holds no record", async () => {
    const folder = await newFolder();
    const { store } = await open(folder);
    await store.exec(["SET", "lead:1", "{}"]);
    await store.exec(["HSET", "task:1", "state", "working"]);
    await store.close();
    const saved = JSON.parse(await readFile(join(folder, "store.json"), "utf8")) as { keys: { key: string }[] };
    expect(saved.keys.map((k) => k.key).sort()).toEqual(["lead:1", "task:1"]);
    expect(await logLines(folder)).toHaveLength(1);
  });

  it("that fails after changing a key (a script, a transaction) is logged all the same", async () => {
    const folder = await newFolder();
    const { store } = await open(folder);
    await expect(store.exec(["EVAL", "redis.call('SET', KEYS[1], 'kept') error('stopped')", 1, "half"])).rejects.toThrow(/stopped/);
    // The emulator gives up on the whole transaction here (Redis would answer the second command with an error).
    await expect(
      store.transaction([
        ["SET", "before", "1"],
        ["LPUSH", "before", "x"],
      ]),
    ).rejects.toThrow(/does not contain a list/);
    const { emulator } = await open(await crashImage(folder));
    expect(await emulator.exec(["MGET", "half", "before"])).toEqual(["kept", "1"]);
  });
});

describe("a store started over the files of a killed process", () => {
  it("holds every answered write, and leaves out an incomplete last record with a note", async () => {
    const folder = await newFolder();
    const live = await open(folder);
    await Promise.all(Array.from({ length: 50 }, (_, i) => live.store.exec(["SET", `lead:${i}`, `v${i}`])));
    await live.store.exec(["ZADD", "leads:due", 5, "lead:1"]);
    await live.store.exec(["ZREM", "leads:due", "lead:1"]);
    const image = await crashImage(folder);
    // Killed while appending the next record: only its start reached the file, and it was never answered.
    const next = JSON.stringify({ keys: [{ key: "lead:50", type: "string", value: "v50", expires_at: null }] });
    await appendFile(join(image, "store.log"), next.slice(0, 30));

    const restarted = await open(image);
    expect(restarted.restored).toBe(50);
    expect(await contents(restarted.emulator)).toEqual(withoutEmpty(await contents(live.emulator)));
    expect(restarted.notes).toEqual([
      `local store: the last record of ${join(image, "store.log")} was incomplete (the process stopped while writing it, ` +
        `before that write was acknowledged); it was left out.`,
    ]);
    // The start saved it all in a snapshot and began a new log, so the next record does not follow the broken line.
    expect(await logLines(image)).toEqual([{ format: "frontdoor-local-store-log/1", generation: 2 }]);
    await restarted.store.exec(["SET", "after", "1"]);
    const again = await open(await crashImage(image));
    expect(again.notes).toEqual([]);
    expect(await again.emulator.exec(["GET", "after"])).toBe("1");
    expect(again.restored).toBe(51);
  });

  it("keeps every TTL to the millisecond, whatever set it, and drops what expired while it was stopped", async () => {
    const folder = await newFolder();
    const live = await open(folder);
    const ratelimit = "local r = redis.call('INCRBY', KEYS[1], 1) if r == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return r";
    const writes: Command[] = [
      ["SET", "px", "v", "PX", 10_000],
      ["SET", "ex", "v", "EX", 3600],
      ["SET", "pexpire", "v"],
      ["PEXPIRE", "pexpire", 60_000],
      ["SET", "persist", "v", "EX", 100],
      ["PERSIST", "persist"],
      ["HSET", "hash", "f", "v"],
      ["EXPIRE", "hash", 120],
      ["EVAL", ratelimit, 1, "rl:window", 60_000],
      ["EVAL", ratelimit, 1, "rl:window", 60_000],
      ["SET", "gone", "v", "PX", 4_000],
      ["SET", "pexpireat", "v"],
      ["PEXPIREAT", "pexpireat", t0 + 90_000],
    ];
    for (const command of writes) await live.store.exec(command);
    vi.setSystemTime(t0 + 1_000);
    const before = await contents(live.emulator);
    const image = await crashImage(folder);

    vi.setSystemTime(t0 + 6_000);
    const { emulator } = await open(image);
    const after = await contents(emulator);
    expect(Object.keys(after)).toEqual(Object.keys(before).filter((key) => key !== "gone"));
    for (const [key, { pttl }] of Object.entries(after))
      expect([key, pttl]).toEqual([key, before[key]!.pttl === -1 ? -1 : before[key]!.pttl - 5_000]);
    expect(after.persist?.pttl).toBe(-1);
    expect(after["rl:window"]).toEqual({ type: "string", value: "2", pttl: 54_000 });
  });

  it("equals the live store, whatever the writes, compactions and passing time before the kill", async () => {
    const strings = fc.constantFrom("s:1", "s:2");
    const hashes = fc.constantFrom("h:1", "h:2");
    const lists = fc.constantFrom("l:1", "l:2");
    const sets = fc.constantFrom("t:1", "t:2");
    const zsets = fc.constantFrom("z:1", "z:2");
    const any = fc.oneof(strings, hashes, lists, sets, zsets);
    const value = fc.constantFrom("a", "b", "7");
    const ms = fc.integer({ min: 1, max: 5_000 });
    const script = "redis.call('SET', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[2], ARGV[2]) redis.call('DEL', 's:2') return 1";
    const inTransaction: fc.Arbitrary<Command> = fc.oneof(
      fc.tuple(fc.constant("SET"), strings, value),
      fc.tuple(fc.constant("SET"), strings, value, fc.constant("PX"), ms),
      fc.tuple(fc.constant("INCR"), strings),
      fc.tuple(fc.constant("MSET"), strings, value, strings, value),
      fc.tuple(fc.constant("GETDEL"), strings),
      fc.tuple(fc.constant("EVAL"), fc.constant(script), fc.constant(2), strings, any, value, ms),
      fc.tuple(fc.constant("HSET"), hashes, value, value),
      fc.tuple(fc.constant("HDEL"), hashes, value),
      fc.tuple(fc.constant("RPUSH"), lists, value),
      fc.tuple(fc.constant("LPOP"), lists),
      fc.tuple(fc.constant("RPOPLPUSH"), lists, lists),
      fc.tuple(fc.constant("SADD"), sets, value),
      fc.tuple(fc.constant("SREM"), sets, value),
      fc.tuple(fc.constant("SMOVE"), sets, sets, value),
      fc.tuple(fc.constant("ZADD"), zsets, fc.integer({ min: -3, max: 3 }), value),
      fc.tuple(fc.constant("ZREM"), zsets, value),
      fc.tuple(fc.constant("DEL"), any, any),
      fc.tuple(fc.constant("PEXPIRE"), any, ms),
      fc.tuple(fc.constant("PERSIST"), any),
      fc.constant<Command>(["FLUSHALL"]),
    );
    // The emulator renames a missing key inside a transaction into a key of no type; outside, it is refused.
    const command = fc.oneof(inTransaction, fc.tuple(fc.constant("RENAME"), strings, strings));
    const step = fc.oneof(
      command,
      fc.array(inTransaction, { minLength: 2, maxLength: 4 }),
      fc.constant(["compact"]),
      fc.tuple(fc.constant("tick"), ms),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        vi.setSystemTime(t0);
        const folder = await newFolder();
        const live = await open(folder);
        for (const step of steps) {
          if (Array.isArray(step[0])) await live.store.transaction(step as Command[]).catch(() => undefined);
          else if (step[0] === "compact") await live.store.compact();
          else if (step[0] === "tick") vi.setSystemTime(Date.now() + Number(step[1]));
          else await live.store.exec(step as Command).catch(() => undefined);
        }
        const restarted = await open(await crashImage(folder));
        expect(await contents(restarted.emulator)).toEqual(withoutEmpty(await contents(live.emulator)));
      }),
      { numRuns: 60 },
    );
  });
});

describe("compaction", () => {
  it("interleaved with writes loses nothing: a kill at any moment leaves every answered write", async () => {
    const folder = await newFolder();
    // Compacts whenever the log is as large as the snapshot, besides the compactions asked for below.
    const live = await open(folder, 1);
    const answered = new Map<string, number>();
    const kills: Promise<{ image: string; answered: Map<string, number> }>[] = [];
    const writer = async (w: number) => {
      for (let i = 1; i <= 60; i++) {
        const key = `k:${w}:${i % 7}`;
        await live.store.exec(i % 2 ? ["SET", key, i] : ["EVAL", "return redis.call('SET', KEYS[1], ARGV[1])", 1, key, i]);
        answered.set(key, i);
        if (i % 20 === 0) void live.store.compact();
        if (i % 15 === 0) {
          const before = new Map(answered);
          kills.push(crashImage(folder).then((image) => ({ image, answered: before })));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    expect(((await logLines(folder))[0] as { generation: number }).generation).toBeGreaterThan(20);

    for (const kill of await Promise.all(kills)) {
      const { emulator } = await open(kill.image);
      // Every write answered before the kill is there (or a later write to the same key, answered meanwhile).
      for (const [key, value] of kill.answered) expect(Number(await emulator.exec(["GET", key]))).toBeGreaterThanOrEqual(value);
    }
    const { emulator } = await open(await crashImage(folder));
    expect(await contents(emulator)).toEqual(withoutEmpty(await contents(live.emulator)));
  });

  it("that stopped before emptying the log restarts without replaying it (a flush is not undone)", async () => {
    const folder = await newFolder();
    const live = await open(folder);
    await live.store.exec(["SET", "a", "1"]);
    await live.store.exec(["HSET", "b", "f", "v"]);
    const image = await newFolder();
    await copyFile(join(folder, "store.log"), join(image, "store.log"));
    // FLUSHALL names no key: the store saves a snapshot instead of a record, then empties the log.
    await live.store.exec(["FLUSHALL"]);
    await copyFile(join(folder, "store.json"), join(image, "store.json"));
    const { restored, emulator } = await open(image);
    expect(restored).toBe(0);
    expect(await emulator.exec(["KEYS", "*"])).toEqual([]);
  });

  it("that fails keeps every write in the log, says so, and is tried again later", async () => {
    const folder = await newFolder();
    const live = await open(folder, 1);
    // A folder where the next snapshot's temporary file goes: saving a snapshot fails, as on a full disk.
    await mkdir(join(folder, "store.json.tmp"));
    for (let i = 0; i < 20; i++) await live.store.exec(["SET", `k:${i}`, i]);
    expect(live.notes[0]).toMatch(/^local store: compacting the log failed \(the writes stay in .*store\.log\): Error: EISDIR/);
    expect((await open(await crashImage(folder))).restored).toBe(20);

    await rm(join(folder, "store.json.tmp"), { recursive: true });
    await live.store.compact();
    expect(await logLines(folder)).toHaveLength(1);
    expect((await open(await crashImage(folder))).restored).toBe(20);
  });
});

describe("a log it cannot read", () => {
  /** A crash image whose log has a damaged line before its last. */
  async function damaged() {
    const folder = await newFolder();
    const live = await open(folder);
    for (const key of ["a", "b", "c"]) await live.store.exec(["SET", key, "v"]);
    const image = await crashImage(folder);
    const lines = (await readFile(join(image, "store.log"), "utf8")).split("\n");
    lines[2] = lines[2]!.slice(0, -5);
    await writeFile(join(image, "store.log"), lines.join("\n"));
    return { image, ...filesIn(image), log: lines.join("\n"), snapshot: await readFile(join(image, "store.json"), "utf8") };
  }

  it("stops the store, naming the log and the line, and changes nothing (npm run leads)", async () => {
    const { image, snapshotFile, logFile, log, snapshot } = await damaged();
    const start = startLocalStore({ token: "t", snapshotFile });
    await expect(start).rejects.toThrow(`The local store's log ${logFile} cannot be read: line 3 is not JSON`);
    await expect(start).rejects.toThrow(`Nothing was changed. Repair the file, or move ${snapshotFile} and ${logFile} away`);
    expect((await readdir(image)).sort()).toEqual(["store.json", "store.log"]);
    expect(await readFile(logFile, "utf8")).toBe(log);
    expect(await readFile(snapshotFile, "utf8")).toBe(snapshot);
  });

  it("for npm start, moves the log aside with its snapshot under one name, and the next start begins empty", async () => {
    const { image, snapshotFile, logFile, log, snapshot } = await damaged();
    const error = (await startLocalStore({ token: "t", snapshotFile, unreadableSnapshot: "keep-aside" }).catch((e: unknown) => e)) as Error;
    const aside = (extension: string) => join(image, `store.unreadable-2026-03-01T12-00-00Z.${extension}`);
    expect((await readdir(image)).sort()).toEqual([
      "store.unreadable-2026-03-01T12-00-00Z.json",
      "store.unreadable-2026-03-01T12-00-00Z.log",
    ]);
    expect(await readFile(aside("log"), "utf8")).toBe(log);
    expect(await readFile(aside("json"), "utf8")).toBe(snapshot);
    expect(error.message).toContain(`It was moved to ${aside("log")}, and ${snapshotFile}, which belongs with it, to ${aside("json")}`);
    expect(error.message).toContain(`move them back (${aside("json")} to ${snapshotFile} and ${aside("log")} to ${logFile})`);

    const store = await startLocalStore({ token: "t", snapshotFile, unreadableSnapshot: "keep-aside" });
    expect(store.restored).toBe(0);
    await store.close();
  });

  it("refuses a log that follows a newer snapshot than the one in place (an older snapshot put back)", async () => {
    const folder = await newFolder();
    const live = await open(folder);
    await live.store.exec(["SET", "a", "1"]);
    const image = await newFolder();
    await copyFile(join(folder, "store.json"), join(image, "store.json"));
    await live.store.compact();
    await live.store.exec(["SET", "b", "2"]);
    await copyFile(join(folder, "store.log"), join(image, "store.log"));
    await expect(open(image)).rejects.toThrow(
      `cannot be read: its records follow the snapshot of generation 2, but ${join(image, "store.json")} is of generation 1`,
    );
  });
});
