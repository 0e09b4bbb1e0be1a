import type { Handler } from "./context.ts";

/**
 * netlify dev (the local runtime) answers a 403 or 404 from a function or an edge function by calling it again at
 * `<path>.html`, `<path>.htm`, `<path>/index.html` and `<path>/index.htm`, to mimic the CDN's pretty URLs, and sends
 * the client whatever the last call answers. Production never does. This wrapper, applied only under netlify dev,
 * keeps each such refusal for a few seconds and answers those calls with it, unchanged: the client gets the refusal
 * for the path it asked for (its `instance` included), about as fast as any other answer, and it is counted once.
 * The doors themselves know nothing of it.
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

export function underNetlifyDev(handler: Handler, memo: RefusalMemo): Handler {
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

/**
 * A memo in the local store (Upstash's REST protocol): under netlify dev every function call runs in a fresh worker, so
 * memory is not shared. Plain fetch, not the Upstash client: each of netlify dev's calls again starts a worker, and
 * importing a client would cost more than the call it answers.
 */
export function storeMemo(url: string, token: string, seconds = 30): RefusalMemo {
  const command = async (...args: (string | number)[]) => {
    const response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(args) });
    return ((await response.json()) as { result?: unknown }).result;
  };
  return {
    get: async (key) => {
      const value = await command("GET", key);
      return typeof value === "string" ? (JSON.parse(value) as StoredResponse) : undefined;
    },
    set: async (key, response) => void (await command("SET", key, JSON.stringify(response), "EX", seconds)),
    delete: async (key) => void (await command("DEL", key)),
  };
}
