import { randomUUID } from "node:crypto";
import IORedis from "ioredis";
import RedisMock from "ioredis-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorBackend, redisBackend } from "../../scripts/local-store/backends.ts";
import type { Backend, Command } from "../../scripts/local-store/upstash-rest.ts";
import { realRedisAvailable } from "../support/upstash-gateway.ts";

/**
 * Lua scripts on the local store (scripts/local-store/lua.ts) answer as on Redis: the same table runs against the
 * emulator and, whenever one answers, the machine's real Redis. Real Redis is shared: keys are this run's own, and
 * removed afterwards.
 */
const run = randomUUID();
const targets: [string, () => { backend: Backend; close(): void }][] = [
  ["the local store's emulator", () => ({ backend: emulatorBackend(new RedisMock({ host: `lua-test-${run}` })), close: () => {} })],
];
if (await realRedisAvailable()) {
  targets.push([
    "real Redis",
    () => {
      const redis = new IORedis({ host: "127.0.0.1", port: 6379, db: 8, maxRetriesPerRequest: 1 });
      return {
        backend: redisBackend(redis),
        close: () => {
          void redis
            .keys(`lua-test:${run}:*`)
            .then((keys) => keys.length && redis.del(...keys))
            .finally(() => redis.disconnect());
        },
      };
    },
  ]);
}

const key = (name: string) => `lua-test:${run}:${name}`;

describe.each(targets)("Lua scripts on %s", (_name, connect) => {
  let backend: Backend;
  let close: () => void;
  beforeAll(() => ({ backend, close } = connect()));
  afterAll(() => close());
  const evaluate = (script: string, keys: string[] = [], args: (string | number)[] = []) =>
    backend.exec(["EVAL", script, keys.length, ...keys, ...args]);

  it.each([
    ["integers, strings, true, and nested tables; numbers are truncated", "return {1, 'two', true, {3.7, -2.5}}", [1, "two", 1, [3, -2]]],
    ["a table ends at its first nil", "return {1, nil, 3}", [1]],
    ["false is nil", "return false", null],
    ["nothing is nil", "return nil", null],
    ["a status table is its status", "return redis.status_reply('FINE')", "FINE"],
    ["an {ok} table too", "return {ok = 'YES'}", "YES"],
  ])("returns %s", async (_what, script, expected) => {
    expect(await evaluate(script)).toEqual(expected);
  });

  it("sees replies as Redis hands them over: a status as {ok}, nil as false, integers as numbers, lists as tables", async () => {
    const script = `
      local set = redis.call('SET', KEYS[1], 'v')
      local missing = redis.call('GET', KEYS[2])
      local n = redis.call('INCR', KEYS[3])
      redis.call('RPUSH', KEYS[4], 'a', 'b')
      local list = redis.call('LRANGE', KEYS[4], 0, -1)
      redis.call('HSET', KEYS[5], 'f', 'v')
      local hash = redis.call('HGETALL', KEYS[5])
      return {type(set), set.ok, tostring(missing), type(n), n, #list, list[2], redis.call('TYPE', KEYS[4]).ok, hash[1], hash[2]}`;
    const keys = ["set", "missing", "counter", "list", "hash"].map(key);
    expect(await evaluate(script, keys)).toEqual(["table", "OK", "false", "number", 1, 2, "b", "list", "f", "v"]);
  });

  it("raises a command's error from redis.call, and returns it as {err} from redis.pcall", async () => {
    await backend.exec(["SET", key("text"), "x"]);
    await expect(evaluate("return redis.call('INCR', KEYS[1])", [key("text")])).rejects.toThrow(/not an integer/);
    expect(await evaluate("local r = redis.pcall('INCR', KEYS[1]) return {type(r), type(r.err)}", [key("text")])).toEqual([
      "table",
      "string",
    ]);
    await expect(evaluate("return redis.error_reply('MY ERROR')")).rejects.toThrow("MY ERROR");
    await expect(evaluate("error('boom')")).rejects.toThrow(/boom/);
    await expect(evaluate("return (")).rejects.toThrow(/Error compiling script/);
  });

  it("writes numbers passed to redis.call as Redis does, and keeps text whole", async () => {
    const script = "redis.call('SET', KEYS[1], 42) redis.call('SET', KEYS[2], 1.5) redis.call('SET', KEYS[3], ARGV[1])";
    await evaluate(`${script} return 0`, [key("int"), key("float"), key("text")], ["Zoë → 東京 ✓"]);
    expect(await backend.exec(["MGET", key("int"), key("float"), key("text")])).toEqual(["42", "1.5", "Zoë → 東京 ✓"]);
  });

  it("runs a script by its SHA once loaded, and refuses an unknown one", async () => {
    const sha = (await backend.exec(["SCRIPT", "LOAD", "return ARGV[1] .. KEYS[1]"])) as string;
    expect(await backend.exec(["EVALSHA", sha, 1, "k", "v"])).toBe("vk");
    await expect(backend.exec(["EVALSHA", "0".repeat(40), 0])).rejects.toThrow(/NOSCRIPT/);
  });
});

describe("a script on the local store's emulator", () => {
  it("runs alone: a command sent while it runs waits for it to finish", async () => {
    const backend = emulatorBackend(new RedisMock({ host: `lua-test-alone-${run}` }));
    const loop: Command = ["EVAL", "for i = 1, 50 do redis.call('INCR', KEYS[1]) end return redis.call('GET', KEYS[1])", 1, "n"];
    const [result, ...seen] = await Promise.all([backend.exec(loop), ...Array.from({ length: 20 }, () => backend.exec(["GET", "n"]))]);
    expect(result).toBe("50");
    expect(new Set(seen)).toEqual(new Set(["50"]));
    expect(await Promise.all([backend.exec(loop), backend.exec(["INCR", "n"])])).toEqual(["100", 101]);
  });
});
