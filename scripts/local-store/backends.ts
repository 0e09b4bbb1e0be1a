import type { Redis as IORedis } from "ioredis";
import type { Backend, Command } from "./upstash-rest.ts";

/** The machine's real Redis through ioredis (the test gateway's backend). */
export function redisBackend(redis: IORedis): Backend {
  return {
    exec: ([name, ...args]) => redis.call(String(name), ...args),
    async transaction(commands) {
      const replies = (await redis.multi(commands.map((c) => c.map(String))).exec()) ?? [];
      return replies.map(([error, result]) => (error ? { error: error.message } : { result }));
    },
  };
}

type Method = (...args: (string | number)[]) => Promise<unknown>;

/**
 * ioredis-mock has no generic `call`, so commands are dispatched by method name; it also ignores lowercase
 * SET options (`set k v nx ex 60`, as @upstash/redis sends them), so option tokens are uppercased.
 */
export function emulatorBackend(redis: object): Backend {
  const normalise = ([name, ...args]: Command): Command => {
    const method = String(name).toLowerCase();
    const fn = (redis as Record<string, unknown>)[method];
    if (typeof fn !== "function" || method.startsWith("_")) throw new Error(`ERR unknown command '${name}'`);
    return [method, ...(method === "set" ? args.map((a, i) => (i >= 2 && typeof a === "string" ? a.toUpperCase() : a)) : args)];
  };
  const emulator = redis as Record<string, Method> & { multi(commands: Command[]): { exec(): Promise<[Error | null, unknown][]> } };
  return {
    exec: (command) => {
      const [method, ...args] = normalise(command);
      return emulator[method as string]!(...args);
    },
    async transaction(commands) {
      const replies = await emulator.multi(commands.map(normalise)).exec();
      return replies.map(([error, result]) => (error ? { error: error.message } : { result }));
    },
  };
}
