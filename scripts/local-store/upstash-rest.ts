import { createHash } from "node:crypto";

/**
 * The Upstash Redis REST protocol (https://upstash.com/docs/redis/features/restapi) over any Redis-like
 * backend, as a web-standard handler. The local store serves it over an in-memory Redis emulator, and the
 * test gateway over the machine's real Redis, so @upstash/redis and @upstash/ratelimit run unchanged.
 */
export type Command = (string | number)[];

export interface Backend {
  /** Runs one command; rejects with the Redis error message on a command error. */
  exec(command: Command): Promise<unknown>;
  /** Runs the commands atomically (MULTI/EXEC). */
  transaction(commands: Command[]): Promise<{ result?: unknown; error?: string }[]>;
}

export interface UpstashRestOptions {
  token: string;
  backend: Backend;
  /** Called once per command, for counting the paid units in benchmarks. */
  onCommand?: (command: Command) => void;
}

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/**
 * @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`, which Redis 7 refuses. The flag line
 * is dropped, and the SHA1 the client computed over the original script is mapped to the stored script's.
 */
export class ScriptTable {
  readonly #byClientSha = new Map<string, string>();

  rewrite(command: Command): Command {
    const name = String(command[0]).toUpperCase();
    if (name === "EVAL" || name === "EVAL_RO") {
      const original = String(command[1]);
      const script = original.replace(/^#!lua[^\n]*\n/, "");
      if (script !== original) this.#byClientSha.set(sha1(original), sha1(script));
      return [command[0]!, script, ...command.slice(2)];
    }
    if (name === "EVALSHA" || name === "EVALSHA_RO") {
      const sha = String(command[1]).toLowerCase();
      return [command[0]!, this.#byClientSha.get(sha) ?? sha, ...command.slice(2)];
    }
    if (name === "SCRIPT" && String(command[1]).toUpperCase() === "LOAD") {
      const original = String(command[2]);
      const script = original.replace(/^#!lua[^\n]*\n/, "");
      if (script !== original) this.#byClientSha.set(sha1(original), sha1(script));
      return [command[0]!, command[1]!, script];
    }
    return command;
  }

  /** SCRIPT LOAD answers with the SHA the client expects, not the stored one. */
  clientSha(command: Command, result: unknown): unknown {
    if (String(command[0]).toUpperCase() === "SCRIPT" && String(command[1]).toUpperCase() === "LOAD") return sha1(String(command[2]));
    return result;
  }
}

const base64 = (value: unknown): unknown => {
  if (typeof value === "string") return value === "OK" ? value : Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(base64);
  return value;
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const isCommand = (value: unknown): value is Command =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" || typeof v === "number");

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createUpstashRestHandler({ token, backend, onCommand }: UpstashRestOptions) {
  const scripts = new ScriptTable();

  const run = async (command: Command) => {
    onCommand?.(command);
    const rewritten = scripts.rewrite(command);
    return scripts.clientSha(command, await backend.exec(rewritten));
  };

  return async (request: Request): Promise<Response> => {
    if (request.headers.get("authorization") !== `Bearer ${token}`) return json({ error: "Unauthorized" }, 401);
    const url = new URL(request.url);
    const encode = request.headers.get("upstash-encoding")?.toLowerCase() === "base64" ? base64 : (v: unknown) => v;

    let body: unknown;
    if (request.method === "POST") {
      const text = await request.text();
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        return json({ error: "ERR failed to parse request body as JSON" }, 400);
      }
    } else if (request.method !== "GET") {
      return json({ error: "ERR method not allowed" }, 405);
    }

    if (url.pathname === "/pipeline" || url.pathname === "/multi-exec") {
      if (!Array.isArray(body) || body.length === 0 || !body.every(isCommand)) {
        return json({ error: "ERR the body must be a non-empty array of commands" }, 400);
      }
      if (url.pathname === "/multi-exec") {
        body.forEach((c) => onCommand?.(c));
        const results = await backend.transaction(body.map((c) => scripts.rewrite(c)));
        return json(results.map((r) => (r.error === undefined ? { result: encode(r.result) } : { error: r.error })));
      }
      const results = [];
      for (const command of body) {
        try {
          results.push({ result: encode(await run(command)) });
        } catch (error) {
          results.push({ error: errorMessage(error) });
        }
      }
      return json(results);
    }

    // A single command: a JSON array body, or path segments (/set/key/value) followed by an optional body.
    const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const command: unknown =
      segments.length > 0 ? [...segments, ...(body === undefined ? [] : [typeof body === "string" ? body : JSON.stringify(body)])] : body;
    if (!isCommand(command)) return json({ error: 'ERR the body must be a command, such as ["GET", "key"]' }, 400);
    try {
      return json({ result: encode(await run(command)) });
    } catch (error) {
      return json({ error: errorMessage(error) }, 400);
    }
  };
}
