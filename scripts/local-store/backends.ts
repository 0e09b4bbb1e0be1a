import { createHash } from "node:crypto";
import type { Redis as IORedis } from "ioredis";
import { LuaScripts } from "./lua.ts";
import type { Backend, Command } from "./upstash-rest.ts";

type Method = (...args: (string | number)[]) => Promise<unknown>;

/** Redis (RESP2) never answers with a map; clients' HGETALL-style object replies are flattened back. */
const asResp = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(asResp);
  if (value !== null && typeof value === "object" && !Buffer.isBuffer(value)) return Object.entries(value).flat();
  return value;
};

/** The machine's real Redis through ioredis (the test gateway's backend). */
export function redisBackend(redis: IORedis): Backend {
  return {
    exec: async ([name, ...args]) => asResp(await redis.call(String(name), ...args)),
    async transaction(commands) {
      const replies = (await redis.multi(commands.map((c) => c.map(String))).exec()) ?? [];
      return replies.map(([error, result]) => (error ? { error: error.message } : { result: asResp(result) }));
    },
  };
}

interface Emulator {
  shaScripts: Record<string, string>;
  multi(commands: Command[]): { exec(): Promise<[Error | null, unknown][]> };
  context?: { modifiedKeyEvents?: { on(event: "modified", listener: (key: string) => void): unknown } };
}

export interface EmulatorBackend extends Backend {
  /**
   * Calls `listener` with every key whose value a command sets or deletes, while the command runs (the signal the
   * emulator's own WATCH uses). A change of expiry alone (EXPIRE, PERSIST) is not reported.
   */
  onKeyModified(listener: (key: string) => void): void;
}

/**
 * ioredis-mock, made to answer like Redis where @upstash clients can tell the difference: it has no generic
 * `call`, so commands are dispatched by method name; it ignores lowercase SET options (`set k v nx ex 60`, as
 * @upstash/redis sends them), so option tokens are uppercased; it lacks SCRIPT, which is added over its own
 * script cache; and INCR on a non-number answers NaN instead of an error. Stream commands are refused: the emulator
 * keeps a stream as a list of nested arrays plus a hash per entry, which the snapshot could not restore. RENAME of a
 * key that does not exist is refused, as Redis does (outside a transaction). EVAL and EVALSHA run in lua.ts, which
 * compiles each script once where the emulator builds a new Lua state for every call.
 */
export function emulatorBackend(redis: object): EmulatorBackend {
  const emulator = redis as Emulator & Record<string, Method>;
  const modifiedKeys = emulator.context?.modifiedKeyEvents;
  if (typeof modifiedKeys?.on !== "function") throw new Error("this version of ioredis-mock does not report modified keys");
  const normalise = ([name, ...args]: Command): Command => {
    const method = String(name).toLowerCase();
    if (typeof emulator[method] !== "function" || method.startsWith("_")) throw new Error(`ERR unknown command '${name}'`);
    if (method.startsWith("x")) throw new Error(`ERR unknown command '${name}': the local store does not keep streams`);
    return [method, ...(method === "set" ? args.map((a, i) => (i >= 2 && typeof a === "string" ? a.toUpperCase() : a)) : args)];
  };
  const script = ([, sub, ...args]: Command) => {
    switch (String(sub).toUpperCase()) {
      case "LOAD": {
        const sha = createHash("sha1").update(String(args[0])).digest("hex");
        emulator.shaScripts[sha] = String(args[0]);
        return sha;
      }
      case "EXISTS":
        return args.map((sha) => (String(sha).toLowerCase() in emulator.shaScripts ? 1 : 0));
      case "FLUSH":
        for (const sha of Object.keys(emulator.shaScripts)) delete emulator.shaScripts[sha];
        return "OK";
      default:
        throw new Error(`ERR unknown subcommand '${sub}'`);
    }
  };
  const check = (result: unknown) => {
    if (typeof result === "number" && Number.isNaN(result)) throw new Error("ERR value is not an integer or out of range");
    return asResp(result);
  };
  const run = async (command: Command) => {
    if (String(command[0]).toUpperCase() === "SCRIPT") return script(command);
    const [method, ...args] = normalise(command);
    // The emulator renames a key that does not exist into one of no type, which no snapshot could save.
    if ((method === "rename" || method === "renamenx") && !(await emulator.exists!(args[0]!))) throw new Error("ERR no such key");
    return check(await emulator[method as string]!(...args));
  };
  // A script runs alone: every other command waits until it has finished, as in Redis. Each waiter checks again right
  // where it resumes, so that nothing slips in between a script ending and the next one starting.
  let scriptRunning: Promise<void> | undefined;
  const lua = new LuaScripts();
  const evaluate = async ([name, scriptOrSha, count, ...rest]: Command) => {
    let script = String(scriptOrSha);
    if (String(name).toUpperCase() === "EVAL") emulator.shaScripts[createHash("sha1").update(script).digest("hex")] = script;
    else if (Object.hasOwn(emulator.shaScripts, script.toLowerCase())) script = emulator.shaScripts[script.toLowerCase()]!;
    else throw new Error("NOSCRIPT No matching script. Please use EVAL.");
    const keys = Number(count);
    if (!Number.isInteger(keys) || keys < 0 || keys > rest.length)
      throw new Error("ERR Number of keys can't be greater than number of args");
    while (scriptRunning) await scriptRunning;
    let done!: () => void;
    scriptRunning = new Promise((resolve) => (done = resolve));
    try {
      return await lua.run(script, rest.slice(0, keys).map(String), rest.slice(keys).map(String), run);
    } finally {
      scriptRunning = undefined;
      done();
    }
  };
  return {
    onKeyModified: (listener) => void modifiedKeys.on("modified", listener),
    async exec(command) {
      if (/^EVAL(SHA)?$/i.test(String(command[0]))) return evaluate(command);
      while (scriptRunning) await scriptRunning;
      return run(command);
    },
    async transaction(commands) {
      while (scriptRunning) await scriptRunning;
      const replies = await emulator.multi(commands.map(normalise)).exec();
      return replies.map(([error, result]) => {
        try {
          return error ? { error: error.message } : { result: check(result) };
        } catch (e) {
          return { error: (e as Error).message };
        }
      });
    },
  };
}
