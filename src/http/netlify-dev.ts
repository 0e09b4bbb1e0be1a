import type { Env } from "../config/env.ts";
import type { Handler } from "./context.ts";

/**
 * netlify dev (the local runtime) answers a 403 or 404 from a function or an edge function by calling it again at
 * `<path>.html`, `<path>.htm`, `<path>/index.html` and `<path>/index.htm`, to mimic the CDN's pretty URLs, and sends
 * the client whatever the last call answers. Production never does. This wrapper, applied only under netlify dev to
 * every function and edge function, keeps the doors ignorant of it:
 *
 * - A refusal a client gets straight from a door is kept a few seconds and those calls again are answered with it,
 *   unchanged: the client gets the refusal for the path it asked for (its `instance` included), it is counted once,
 *   and each call again costs netlify dev's start of a worker but not the door.
 * - Behind an edge function's `next()` a call again would be a function worker started for nothing, within the
 *   client's one request. There the wrapper marks the request it hands on; the function's wrapper answers a marked
 *   request's 403 or 404 with a status netlify dev does not retry, the real one in a header, and the edge function's
 *   wrapper puts the real status back before its door sees the answer. Nothing outside netlify dev sees either header.
 * - npm start puts a front before netlify dev (scripts/runtime/front.ts) that marks every client request the same way
 *   and puts the real status back, so there the memo is hardly used; it stays for netlify dev run on its own.
 */
export interface RefusalMemo {
  get(key: string): Promise<StoredResponse | undefined>;
  set(key: string, response: StoredResponse): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface StoredResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

/** The variants in the order netlify dev tries them; the last one ends the sequence. */
const variants = [".html", ".htm", "/index.html", "/index.htm"];
const longestFirst = [...variants].sort((a, b) => b.length - a.length);

/** The path a call was made for, and whether it is one of netlify dev's calls again. */
export function requestedPath(pathname: string): { path: string; retry: boolean; last: boolean } {
  const variant = longestFirst.find((v) => pathname.endsWith(v));
  if (!variant) return { path: pathname, retry: false, last: false };
  return { path: pathname.slice(0, -variant.length) || "/", retry: true, last: variant === variants.at(-1) };
}

const retried = new Set([403, 404]);

async function fingerprint(request: Request, path: string): Promise<string> {
  const { search } = new URL(request.url);
  const body = request.method === "GET" || request.method === "HEAD" ? new ArrayBuffer(0) : await request.clone().arrayBuffer();
  const parts = [request.method, path, search, request.headers.get("authorization") ?? "", request.headers.get("cookie") ?? ""];
  const head = new TextEncoder().encode(`${parts.join("\n")}\n`);
  const bytes = new Uint8Array(head.byteLength + body.byteLength);
  bytes.set(head);
  bytes.set(new Uint8Array(body), head.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `netlify-dev:refusal:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * On every request npm start's front hands on: its client's address. netlify dev tells a function the address of the
 * connection it was called on, and its edge functions 127.0.0.1 whatever that is, where Netlify gives each its client's.
 * Read only here, so only under netlify dev; the front drops any a client sends.
 */
export const clientAddressHeader = "x-frontdoor-dev-client-address";
/** On the request an edge function hands on with `next()`. */
export const handedOnHeader = "x-frontdoor-dev-handed-on";
/** On the answer to such a request: the status of the 403 or 404 it carries as a 200. */
export const refusalStatusHeader = "x-frontdoor-dev-refusal-status";

/** The handler as it is served where it runs: wrapped under netlify dev (which sets NETLIFY_DEV; no other module asks). */
export const servedWhereItRuns = (env: Env, handler: Handler, memo: () => RefusalMemo): Handler =>
  env("NETLIFY_DEV") === "true" ? underNetlifyDev(handler, memo()) : handler;

export function underNetlifyDev(handler: Handler, memo: RefusalMemo): Handler {
  const kept = refusalsKept(handler, memo);
  return async (request, given) => {
    const context = { ...given, ip: request.headers.get(clientAddressHeader) || given.ip };
    const handOn = context.next;
    const withMarkedNext = handOn ? { ...context, next: (r: Request) => handedOn(handOn, r) } : context;
    if (!request.headers.has(handedOnHeader)) return kept(request, withMarkedNext);
    return carried(await handler(request, withMarkedNext));
  };
}

function refusalsKept(handler: Handler, memo: RefusalMemo): Handler {
  return async (request, context) => {
    const url = new URL(request.url);
    const { path, retry, last } = requestedPath(url.pathname);
    const key = await fingerprint(request, path);
    if (retry) {
      const kept = await memo.get(key);
      if (kept) {
        if (last) await memo.delete(key);
        return new Response(kept.body, { status: kept.status, headers: kept.headers });
      }
      // Not one of ours (or it expired): answer for the path the client asked for.
      url.pathname = path;
      return handler(new Request(url, request), context);
    }
    const response = await handler(request, context);
    if (!retried.has(response.status)) return response;
    const body = await response.text();
    await memo.set(key, { status: response.status, headers: [...response.headers], body });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/**
 * The status a marked request's answer really has: the refusal it carries, else its own. npm start's front
 * (scripts/runtime/front.ts) uses it too; the caller drops `refusalStatusHeader` from what it passes on.
 */
export function restoredStatus(status: number, carriedStatus: string | null | undefined): number {
  const carried = Number(carriedStatus);
  return status === 200 && retried.has(carried) ? carried : status;
}

/** Hands a request on, marked, and gives back the refusal status its answer carries. */
async function handedOn(next: (request: Request) => Promise<Response>, request: Request): Promise<Response> {
  const marked = new Request(request);
  marked.headers.set(handedOnHeader, "1");
  const response = await next(marked);
  const carried = response.headers.get(refusalStatusHeader);
  if (carried === null) return response;
  const headers = new Headers(response.headers);
  headers.delete(refusalStatusHeader);
  return new Response(response.body, { status: restoredStatus(response.status, carried), headers });
}

/** A marked request's refusal, as a status netlify dev hands back without calling again. */
function carried(response: Response): Response {
  if (!retried.has(response.status)) return response;
  const headers = new Headers(response.headers);
  headers.set(refusalStatusHeader, String(response.status));
  return new Response(response.body, { status: 200, headers });
}

/** A memo in this process: the edge functions' Deno process lives across requests under netlify dev. */
export function memoryMemo(seconds = 30): RefusalMemo {
  const kept = new Map<string, { response: StoredResponse; until: number }>();
  return {
    get: async (key) => {
      const entry = kept.get(key);
      return entry && entry.until > Date.now() ? entry.response : undefined;
    },
    set: async (key, response) => {
      for (const [k, e] of kept) if (e.until <= Date.now()) kept.delete(k);
      kept.set(key, { response, until: Date.now() + seconds * 1000 });
    },
    delete: async (key) => void kept.delete(key),
  };
}
