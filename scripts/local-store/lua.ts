import { createRequire } from "node:module";
import type { Command } from "./upstash-rest.ts";

// The emulator's own Lua engine (fengari, a dependency of ioredis-mock), loaded from where ioredis-mock finds it.
const require = createRequire(createRequire(import.meta.url).resolve("ioredis-mock"));
// fengari ships no types.
const { lua, lauxlib, lualib, to_luastring } = require("fengari") as {
  lua: any;
  lauxlib: any;
  lualib: any;
  to_luastring: (s: string) => Uint8Array;
};
type State = unknown;

/**
 * The `redis` object scripts see. A command is yielded to the runner, which runs it on the store and resumes the script
 * with the reply: an error reply comes back as {err = ...}, which redis.call raises and redis.pcall returns.
 */
const prelude = `
local yield = coroutine.yield
redis = {}
function redis.pcall(...) return yield(...) end
function redis.call(...)
  local reply = yield(...)
  if type(reply) == 'table' and reply.err then error(reply.err, 0) end
  return reply
end
function redis.error_reply(message) return { err = message } end
function redis.status_reply(status) return { ok = status } end
`;

/** Commands whose reply is a status, which a script sees as {ok = ...} (SET with GET answers a value instead). */
const statusReplies = new Set([
  "SET",
  "MSET",
  "RENAME",
  "HMSET",
  "LSET",
  "LTRIM",
  "SETEX",
  "PSETEX",
  "FLUSHALL",
  "FLUSHDB",
  "TYPE",
  "PING",
]);

const int32 = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31;

/** A reply as Redis hands it to a script: integers as numbers, nil as false, arrays as tables, statuses as {ok}. */
function pushReply(L: State, reply: unknown, status = false): void {
  if (reply === null || reply === undefined) lua.lua_pushboolean(L, false);
  else if (typeof reply === "number") int32(reply) ? lua.lua_pushinteger(L, reply) : lua.lua_pushnumber(L, reply);
  else if (Array.isArray(reply)) {
    lua.lua_createtable(L, reply.length, 0);
    reply.forEach((item, index) => {
      pushReply(L, item);
      lua.lua_rawseti(L, -2, index + 1);
    });
  } else if (status) {
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushstring(L, to_luastring(String(reply)));
    lua.lua_setfield(L, -2, to_luastring("ok"));
  } else lua.lua_pushstring(L, to_luastring(String(reply)));
}

function pushError(L: State, message: string): void {
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushstring(L, to_luastring(message));
  lua.lua_setfield(L, -2, to_luastring("err"));
}

/** A script's value as Redis answers it: numbers truncated to integers, true as 1, false and nil as nil. */
function readValue(L: State, index: number): unknown {
  switch (lua.lua_type(L, index)) {
    case lua.LUA_TNUMBER:
      return Math.trunc(lua.lua_tonumber(L, index));
    case lua.LUA_TSTRING:
      return lua.lua_tojsstring(L, index);
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, index) ? 1 : null;
    case lua.LUA_TTABLE:
      return readTable(L, lua.lua_absindex(L, index));
    default:
      return null;
  }
}

function readTable(L: State, index: number): unknown {
  for (const field of ["err", "ok"] as const) {
    const type = lua.lua_getfield(L, index, to_luastring(field));
    const text = type === lua.LUA_TSTRING ? lua.lua_tojsstring(L, -1) : undefined;
    lua.lua_pop(L, 1);
    if (text !== undefined && field === "err") throw new Error(text);
    if (text !== undefined) return text;
  }
  const items: unknown[] = [];
  for (let i = 1; lua.lua_rawgeti(L, index, i) !== lua.LUA_TNIL; i++) {
    items.push(readValue(L, -1));
    lua.lua_pop(L, 1);
  }
  lua.lua_pop(L, 1);
  return items;
}

/** The arguments a script passed to redis.call (strings, or numbers written as Redis writes them), or why not. */
function readCommand(L: State): Command | Error {
  const command: Command = [];
  for (let i = 1; i <= lua.lua_gettop(L); i++) {
    const type = lua.lua_type(L, i);
    if (type === lua.LUA_TSTRING) command.push(lua.lua_tojsstring(L, i));
    else if (type === lua.LUA_TNUMBER) command.push(String(lua.lua_tonumber(L, i)));
    else return new Error("ERR Lua redis lib command arguments must be strings or integers");
  }
  return command.length > 0 ? command : new Error("ERR Please specify at least one argument for this redis lib call");
}

/** Runs what a script asked for and puts the reply where the script resumes: a value, or {err = ...}. */
async function answer(L: State, command: Command | Error, run: (command: Command) => Promise<unknown>): Promise<void> {
  if (command instanceof Error) return pushError(L, command.message);
  try {
    pushReply(L, await run(command), statusReplies.has(String(command[0]).toUpperCase()) && !isSetWithGet(command));
  } catch (error) {
    pushError(L, (error as Error).message);
  }
}

const setGlobalList = (L: State, name: string, items: string[]) => {
  lua.lua_createtable(L, items.length, 0);
  items.forEach((item, index) => {
    lua.lua_pushstring(L, to_luastring(item));
    lua.lua_rawseti(L, -2, index + 1);
  });
  lua.lua_setglobal(L, to_luastring(name));
};

/**
 * Runs Lua scripts as Redis does, in one Lua state where each script is compiled once (the emulator builds a new Lua
 * state and compiles the script on every EVAL, which costs most of a quota check). Each run is a coroutine: every
 * redis.call yields the command to `run`, and the script resumes with its reply. The caller runs one script at a time
 * and lets nothing else change the store meanwhile (see backends.ts).
 */
export class LuaScripts {
  readonly #L: State = lauxlib.luaL_newstate();
  readonly #compiled = new Map<string, number>();

  constructor() {
    lualib.luaL_openlibs(this.#L);
    if (lauxlib.luaL_dostring(this.#L, to_luastring(prelude)) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(this.#L, -1));
  }

  async run(script: string, keys: string[], args: string[], run: (command: Command) => Promise<unknown>): Promise<unknown> {
    const L = this.#L;
    setGlobalList(L, "KEYS", keys);
    setGlobalList(L, "ARGV", args);
    const thread = lua.lua_newthread(L);
    const threadRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    try {
      lua.lua_rawgeti(thread, lua.LUA_REGISTRYINDEX, this.#compile(script));
      for (let resumeWith = 0; ; resumeWith = 1) {
        const status = lua.lua_resume(thread, L, resumeWith);
        if (status === lua.LUA_OK) return lua.lua_gettop(thread) > 0 ? readValue(thread, 1) : null;
        if (status !== lua.LUA_YIELD) throw scriptError(thread);
        const command = readCommand(thread);
        lua.lua_settop(thread, 0);
        await answer(thread, command, run);
      }
    } finally {
      lauxlib.luaL_unref(L, lua.LUA_REGISTRYINDEX, threadRef);
    }
  }

  #compile(script: string): number {
    let ref = this.#compiled.get(script);
    if (ref === undefined) {
      const L = this.#L;
      if (lauxlib.luaL_loadbuffer(L, to_luastring(script), null, to_luastring("@user_script")) !== lua.LUA_OK) {
        const message = lua.lua_tojsstring(L, -1);
        lua.lua_pop(L, 1);
        throw new Error(`ERR Error compiling script (new function): ${message}`);
      }
      ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX) as number;
      this.#compiled.set(script, ref);
    }
    return ref;
  }
}

/** The error a script stopped with: its own {err = ...} (a failed redis.call, redis.error_reply) or a Lua error. */
function scriptError(L: State): Error {
  if (lua.lua_type(L, -1) === lua.LUA_TTABLE) {
    try {
      readTable(L, lua.lua_absindex(L, -1));
    } catch (error) {
      return error as Error;
    }
  }
  return new Error(`ERR Error running script: ${lua.lua_tojsstring(L, -1)}`);
}

const isSetWithGet = (command: Command) =>
  String(command[0]).toUpperCase() === "SET" && command.slice(3).some((arg) => String(arg).toUpperCase() === "GET");
