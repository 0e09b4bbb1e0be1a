import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { errors, Redis, type Requester, type UpstashRequest, type UpstashResponse } from "@upstash/redis";
import type { Configuration } from "../config/settings.ts";
import { storeSettings } from "./redis.ts";

/**
 * The Upstash REST protocol over Node's own HTTP client, for the functions (Node), which pass it to `new Redis()` as
 * the client's documented `Requester`. The client's default sends each command with `fetch`, whose machinery costs
 * about three times the CPU of `node:http` per command (docs/performance.md): a quota check pays it on every request.
 * The edge (Deno) keeps the default, where `fetch` is native.
 *
 * Results come as JSON, not base64: what this project stores is UTF-8 text. Like the default client, it keeps
 * read-your-writes (the `upstash-sync-token` header), retries a command that could not be sent, and turns a deadline
 * into an `AbortSignal.timeout` DOMException, so `isStoreOutage` reads every failure the same way.
 */
export interface NodeRequesterOptions {
  url: string;
  token: string;
  /** The deadline of one command, its retries included. */
  timeoutMs: number;
  retries: number;
  backoffMs: number;
}

/** A command the store could not be asked (no connection, reset before an answer): the same class fetch throws. */
const unreachable = (cause: unknown) => new TypeError("the store could not be reached", { cause });

export function nodeRequester({ url, token, timeoutMs, retries, backoffMs }: NodeRequesterOptions): Requester {
  const base = new URL(url);
  const secure = base.protocol === "https:";
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const prefix = base.pathname.replace(/\/$/, "");

  const requester: Requester = {
    readYourWrites: true,
    upstashSyncToken: "",
    async request<TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      // AbortSignal.timeout's own reason, on a timer cleared with the answer: a deadline left running costs CPU when it
      // fires, long after (docs/performance.md).
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
        timeoutMs,
      );
      try {
        return await sendWithin<TResult>(req, deadline.signal);
      } finally {
        clearTimeout(timer);
      }
    },
  };

  async function sendWithin<TResult>(req: UpstashRequest, signal: AbortSignal): Promise<UpstashResponse<TResult>> {
    const body = JSON.stringify(req.body);
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      ...req.headers,
    };
    if (requester.readYourWrites && requester.upstashSyncToken) headers["upstash-sync-token"] = requester.upstashSyncToken;
    const path = [prefix, ...(req.path ?? [])].join("/") || "/";
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await exchange(path, headers, body, signal);
        return readAnswer<TResult>(answer, req, requester);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (!(error instanceof TypeError) || attempt >= retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, backoffMs));
      }
    }
  }

  function exchange(path: string, headers: Record<string, string>, body: string, signal: AbortSignal) {
    return new Promise<{ response: IncomingMessage; text: string }>((resolve, reject) => {
      const outgoing = send({ host: base.hostname, port: base.port, path, method: "POST", headers, agent, signal }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ response, text }));
        response.on("error", (error) => reject(unreachable(error)));
      });
      outgoing.on("error", (error) => reject(signal.aborted ? signal.reason : unreachable(error)));
      outgoing.end(body);
    });
  }
  return requester;
}

function readAnswer<TResult>({ response, text }: { response: IncomingMessage; text: string }, req: UpstashRequest, requester: Requester) {
  let parsed: UpstashResponse<TResult> | { error?: string };
  try {
    parsed = JSON.parse(text) as UpstashResponse<TResult>;
  } catch (cause) {
    throw new errors.UpstashJSONParseError(text, { cause });
  }
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) throw new errors.UpstashError(`${parsed.error}, command was: ${JSON.stringify(req.body)}`);
  const sync = response.headers["upstash-sync-token"];
  if (requester.readYourWrites && typeof sync === "string") requester.upstashSyncToken = sync;
  return parsed as UpstashResponse<TResult>;
}

/** The Upstash client the functions use: the deployment's store over `node:http(s)`. */
export const redisFromEnv = (settings: Configuration): Redis => new Redis(nodeRequester(storeSettings(settings)));
