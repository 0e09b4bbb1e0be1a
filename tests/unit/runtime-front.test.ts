import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  gaveUpOn,
  startFront,
  wellFormedPath,
  withoutEscapedBackslash,
  withoutPlatformFile,
  type Front,
} from "../../scripts/runtime/front.ts";
import { callsAFunction, FunctionCalls } from "../../scripts/runtime/function-calls.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { handedOnHeader, refusalStatusHeader } from "../../src/http/netlify-dev.ts";

/** npm start's front against a stand-in for netlify dev that shows what it received and answers as asked. */
let upstream: Server;
let front: Front;
let base: string;
let releaseSecondChunk: () => void;
let requestsSeen = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    requestsSeen++;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url === "/carried") {
        res.writeHead(200, { "Content-Type": "application/json", [refusalStatusHeader]: "403" }).end('{"instance":"/carried"}');
      } else if (req.url === "/redirect") {
        res.writeHead(308, { Location: "/elsewhere" }).end();
      } else if (req.url === "/stream") {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write("data: first\n\n");
        releaseSecondChunk = () => res.end("data: second\n\n");
      } else {
        res.writeHead(200, { "Content-Type": "application/json", "Keep-Alive": "timeout=77", "X-Powered-By": "Express" });
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() }));
      }
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  front = await startFront(await freePort(), (upstream.address() as AddressInfo).port);
  base = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await front.close();
  await new Promise((resolve) => upstream.close(resolve));
});

const echoed = async (res: Response) => (await res.json()) as { method: string; url: string; headers: IncomingHttpHeaders; body: string };

describe("npm start's front", () => {
  it("marks every request once as handed on, whatever the client sent, and keeps Host, the path and the query", async () => {
    const res = await fetch(`${base}/api/v1/offers?x=1`, { headers: { [handedOnHeader]: "forged" } });
    const seen = await echoed(res);
    expect(seen.url).toBe("/api/v1/offers?x=1");
    expect(seen.headers[handedOnHeader]).toBe("1");
    expect(seen.headers.host).toBe(new URL(base).host);
    expect(res.headers.get("keep-alive")).not.toBe("timeout=77"); // its own connection's, not netlify dev's
  });

  it("hands a chunked body on whole, with its length, once the client has sent all of it", async () => {
    let secondPart: (text: string) => void = () => undefined;
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        secondPart = (text) => {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        };
      },
    });
    const before = requestsSeen;
    const answer = fetch(`${base}/mcp`, { method: "POST", body, duplex: "half" } as RequestInit);
    await sleep(200);
    expect(requestsSeen).toBe(before);
    secondPart("1}");
    const seen = await echoed(await answer);
    expect(seen).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(seen.headers["content-length"]).toBe("7");
    expect(seen.headers["transfer-encoding"]).toBeUndefined();
  });

  it("hands nothing on of an upload the client abandons before its body is whole", async () => {
    const before = requestsSeen;
    const socket = connect((front.server.address() as AddressInfo).port, "127.0.0.1");
    await once(socket, "connect");
    socket.write('POST /briefs HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":');
    await sleep(100);
    socket.destroy();
    await sleep(100);
    expect(requestsSeen).toBe(before);
    expect((await echoed(await fetch(`${base}/after`))).url).toBe("/after");
  });

  it("puts back the refusal status a 200 carries, without the carrying header", async () => {
    const res = await fetch(`${base}/carried`);
    expect(res.status).toBe(403);
    expect(res.headers.has(refusalStatusHeader)).toBe(false);
    expect(await res.json()).toEqual({ instance: "/carried" });
  });

  it("passes redirects and HEAD on as they are", async () => {
    const redirect = await fetch(`${base}/redirect`, { redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([308, "/elsewhere"]);
    const head = await fetch(`${base}/anything`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
  });

  it("hands each chunk of an answer on as it comes, without waiting for the end", async () => {
    const res = await fetch(`${base}/stream`);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    releaseSecondChunk();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: second\n\n");
  });

  it("answers 502 in plain words on the site's paths when netlify dev does not answer, and a door's 503 in its format on a door's", async () => {
    const closed = await startFront(await freePort(), await freePort());
    const port = (closed.server.address() as AddressInfo).port;
    const get = (path: string) =>
      new Promise<{ status?: number; type?: string; text: string; retry?: string }>((resolve, reject) =>
        request({ host: "127.0.0.1", port, path }, (answer) => {
          let text = "";
          answer.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          answer.on("end", () =>
            resolve({ status: answer.statusCode, type: answer.headers["content-type"], text, retry: answer.headers["retry-after"] }),
          );
        })
          .on("error", reject)
          .end(),
      );
    const door = await get("/api/v1/company");
    const res = await get("/");
    await closed.close();
    expect([door.status, door.type, door.retry]).toEqual([503, "application/problem+json", "20"]);
    expect(JSON.parse(door.text)).toMatchObject({ code: "service_unavailable", detail: expect.stringContaining("ECONNREFUSED") });
    expect(res.status).toBe(502);
    expect(res.type).toBe("text/plain; charset=utf-8");
    expect(res.text).toMatch(/netlify dev did not answer \(ECONNREFUSED\)/);
  });

  it("answers what Node's parser refuses, other than a method it does not know, as Node does", async () => {
    const port = (front.server.address() as AddressInfo).port;
    const statusLine = async (head: string) => {
      const socket = connect(port, "127.0.0.1");
      await once(socket, "connect");
      socket.end(head);
      let text = "";
      for await (const chunk of socket) text += String(chunk);
      return text.split("\r\n")[0];
    };
    expect(await statusLine("G@T / HTTP/1.1\r\nHost: x\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
    expect(await statusLine(`GET / HTTP/1.1\r\nHost: x\r\nX: ${"y".repeat(20_000)}\r\n\r\n`)).toBe(
      "HTTP/1.1 431 Request Header Fields Too Large",
    );
    expect(await statusLine("TRACK /anything HTTP/1.1\r\nHost: x\r\n\r\n")).toBe("HTTP/1.1 405 Method Not Allowed");
  });

  it("hands a path whose escapes do not decode on with each % escaped, and leaves every other path and the query as sent", () => {
    expect(wellFormedPath("/a2a/v1/rest/tasks/%zz")).toBe("/a2a/v1/rest/tasks/%25zz");
    expect(wellFormedPath("/tasks/%00%ff?x=%zz")).toBe("/tasks/%2500%25ff?x=%zz");
    expect(wellFormedPath("/%ZZ")).toBe("/%25ZZ");
    for (const sent of ["/", "/api/v1/offers?page=2", "/a/%20b/%C3%A9", "/x%2Fy"]) expect(wellFormedPath(sent)).toBe(sent);
  });

  it("hands a site path holding an escaped backslash on with its % escaped, and every door's path as sent", () => {
    expect(withoutEscapedBackslash("/%5Cevil.example")).toBe("/%255Cevil.example");
    expect(withoutEscapedBackslash("/a%5cb/%5C?x=%5C")).toBe("/a%255Cb/%255C?x=%5C");
    expect(withoutEscapedBackslash("/mcp%5C")).toBe("/mcp%255C");
    for (const sent of ["/api/v1/%5C", "/mcp/%5C", "/oauth/%5C", "/a2a/v1/rest/%5C", "/offers", "/%255C"]) {
      expect(withoutEscapedBackslash(sent)).toBe(sent);
    }
  });

  it("hands a path naming one of the platform's files on below it, where no file can be, and every other path as sent", () => {
    expect(withoutPlatformFile("/_headers")).toBe("/_headers/not-a-file");
    expect(withoutPlatformFile("/%5Fredirects/?x=1")).toBe("/%5Fredirects/not-a-file?x=1");
    for (const sent of ["//_headers", "/./_headers", "/a/../_headers", "/_HEADERS"])
      expect(withoutPlatformFile(sent)).toBe(`${sent}/not-a-file`);
    for (const sent of ["/", "/_headers.md", "/some/_headers", "/_headersx", "/%zz", "/headers"])
      expect(withoutPlatformFile(sent)).toBe(sent);
  });

  it("hands on no Content-Encoding of a request, and answers with no X-Powered-By", async () => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-encoding": "gzip", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect((await echoed(res)).headers["content-encoding"]).toBeUndefined();
  });
});

/**
 * A stand-in for netlify dev's functions: it answers a request that says `x-fail` as netlify dev answers a function that
 * failed (lambda-local's timeout, as text or as its HTML page, or a function's throw), holds one that says `x-hold` until
 * the test releases it, and echoes every other at once.
 */
/** This checkout, as a stack trace names it. */
const repo = fileURLToPath(new URL("../../", import.meta.url));

async function functionsStandIn(calls?: FunctionCalls) {
  const held: { url: string; body: string; release: () => void }[] = [];
  // The stack a real failure prints names this checkout's own files.
  const stack = `    at new TimeoutError (${repo}node_modules/lambda-local/build/lib/utils.js:119:28)`;
  const failures: Record<string, [string, Record<string, string>]> = {
    timeout: [`TimeoutError: Task timed out after 30.00 seconds\n ${stack}`, {}],
    "timeout-page": [
      `<html><pre><code>{"errorType":"TimeoutError","errorMessage":"Task timed out after 30.00 seconds","trace":["${stack}"]}</code></pre></html>`,
      { "content-type": "text/html" },
    ],
    threw: [`TypeError: boom\n    at handler (${repo}build/doors/mcp.mjs:1:2)`, {}],
  };
  const upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const echo = () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ url: req.url, body }));
      const failure = failures[String(req.headers["x-fail"])];
      if (failure) res.writeHead(500, failure[1]).end(failure[0]);
      else if (req.headers["x-hold"]) held.push({ url: req.url!, body, release: echo });
      else echo();
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const front = await startFront(await freePort(), (upstream.address() as AddressInfo).port, calls);
  const base = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
  return {
    held,
    call: (path: string, headers: Record<string, string> = {}, body?: string, signal?: AbortSignal) =>
      fetch(`${base}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        signal,
      }),
    async close() {
      await front.close();
      await new Promise((resolve) => upstream.close(resolve));
    },
  };
}

describe("npm start's front, when netlify dev's function fails", () => {
  let standIn: Awaited<ReturnType<typeof functionsStandIn>>;
  beforeAll(async () => (standIn = await functionsStandIn()));
  afterAll(() => standIn.close());
  const call: typeof standIn.call = (...args) => standIn.call(...args);

  it.each([
    ["/mcp/server-card", {}, "application/json", { error: { code: -32093, data: { code: "service_unavailable" } } }],
    ["/api/v1/briefs", { "x-nf-passthrough": "passthrough" }, "application/problem+json", { code: "service_unavailable", status: 503 }],
    ["/a2a/v1/rest/tasks", {}, "application/a2a+json", { error: { code: 503, status: "UNAVAILABLE" } }],
  ])(
    "answers netlify dev's function timeout at %s as the door's 503 with Retry-After, never with its stack",
    async (path, headers, type, body) => {
      for (const [fail, accept] of [
        ["timeout", "application/json"],
        ["timeout-page", "text/html"],
      ]) {
        const res = await call(path, { ...headers, "x-fail": fail!, accept: accept! });
        const text = await res.text();
        expect([res.status, res.headers.get("content-type")?.split(";")[0], res.headers.get("retry-after")], fail).toEqual([
          503,
          type,
          "5",
        ]);
        expect(JSON.parse(text), fail).toMatchObject(body);
        expect(text, fail).toContain("gave up on this call after its 30 s limit for a function");
        expect(text, fail).not.toMatch(/node_modules|TimeoutError|\bat /);
        expect(text, fail).not.toContain(repo);
      }
    },
  );

  it("answers the contact form's timeout 503 in plain words, and a function that threw 500 without its stack", async () => {
    const form = await call("/contact", { "x-fail": "timeout" }, "{}");
    expect([form.status, form.headers.get("content-type"), form.headers.get("retry-after")]).toEqual([
      503,
      "text/plain; charset=utf-8",
      "5",
    ]);
    expect(await form.text()).toMatch(/^npm start's netlify dev gave up on this call after its 30 s limit/);
    for (const path of ["/mcp", "/api/v1/company", "/contact"]) {
      const threw = await call(path, { "x-fail": "threw" }, "{}");
      const text = await threw.text();
      expect([threw.status, threw.headers.get("content-type"), threw.headers.get("retry-after")], path).toEqual([
        500,
        "text/plain; charset=utf-8",
        null,
      ]);
      expect(text, path).toMatch(/threw past its door, a bug/);
      expect(text, path).not.toMatch(/boom|build\/doors|\bat /);
      expect(text, path).not.toContain(repo);
    }
  });

  it("takes a HEAD's bodiless 500 for the limit only once the limit has passed", () => {
    expect(gaveUpOn("", "HEAD", 30_000)).toBe(true);
    expect(gaveUpOn("", "HEAD", 29_999)).toBe(false);
    expect(gaveUpOn("", "GET", 60_000)).toBe(false);
    expect(gaveUpOn("TypeError: boom", "GET", 60_000)).toBe(false);
  });
});

describe("npm start's front, when netlify dev's functions are busy", () => {
  const calls = new FunctionCalls(2, 2);
  let standIn: Awaited<ReturnType<typeof functionsStandIn>>;
  beforeAll(async () => (standIn = await functionsStandIn(calls)));
  afterAll(() => standIn.close());
  const call: typeof standIn.call = (...args) => standIn.call(...args);
  const held = () => standIn.held;
  const releaseAll = () =>
    held()
      .splice(0)
      .forEach((h) => h.release());

  /** Waits until the stand-in holds `count` requests, and a moment more to see that no other arrives. */
  const holding = async (count: number) => {
    await expect.poll(() => held().length).toBe(count);
    await sleep(50);
    expect(held().length).toBe(count);
  };
  const hold = { "x-hold": "1" };
  const answered = (res: Promise<Response>) => res.then(async (r) => ((await r.json()) as { url: string; body: string }).body);

  it("hands netlify dev so many function calls at once and the rest in order, each with its body; past its queue, the door's 503 at once", async () => {
    const answers = [1, 2, 3, 4].map((n) => answered(call("/mcp", hold, `{"n":${n}}`)));
    await holding(2);
    const refused = await call("/mcp", hold, '{"n":5}');
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(await refused.json()).toMatchObject({ error: { code: -32093, message: expect.stringContaining("2 function calls waiting") } });
    held().shift()!.release();
    await holding(2);
    held().shift()!.release();
    await holding(2);
    expect(held().map((h) => h.body)).toEqual(['{"n":3}', '{"n":4}']);
    releaseAll();
    expect(await Promise.all(answers)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
    expect(calls.counts).toEqual({ running: 0, waiting: 0 });
  });

  it("holds no static file and no edge function's own work, only what an edge function hands on to a function", async () => {
    const busy = [1, 2].map(() => answered(call("/a2a/v1", hold, "{}")));
    await holding(2);
    for (const path of ["/offers", "/api/v1/company", "/.well-known/jwks.json"]) expect((await call(path)).status, path).toBe(200);
    expect((await call("/api/v1/briefs", {}, "{}")).status, "the gateway's own call").toBe(200);
    expect((await call("/api/v1/company", { "x-nf-passthrough": "passthrough" })).status, "a read handed on").toBe(200);
    const brief = answered(call("/api/v1/briefs", { ...hold, "x-nf-passthrough": "passthrough" }, '{"brief":1}'));
    await expect.poll(() => calls.counts.waiting).toBe(1);
    releaseAll();
    await holding(1);
    held().shift()!.release();
    expect(await brief).toBe('{"brief":1}');
    await Promise.all(busy);
  });

  it("lets a client that goes away leave the queue: netlify dev never sees its call, and the next one takes its turn", async () => {
    const busy = [1, 2].map(() => answered(call("/oauth/token", hold, "{}")));
    await holding(2);
    const abort = new AbortController();
    const gone = call("/oauth/token", hold, '{"gone":1}', abort.signal).catch(() => "aborted");
    await expect.poll(() => calls.counts.waiting).toBe(1);
    abort.abort();
    expect(await gone).toBe("aborted");
    await expect.poll(() => calls.counts.waiting).toBe(0);
    const next = answered(call("/oauth/token", hold, '{"next":1}'));
    await expect.poll(() => calls.counts.waiting).toBe(1);
    held().shift()!.release();
    await holding(2);
    expect(held().map((h) => h.body)).toEqual(["{}", '{"next":1}']);
    releaseAll();
    expect(await next).toBe('{"next":1}');
    await Promise.all(busy);
    expect(calls.counts).toEqual({ running: 0, waiting: 0 });
  });
});

describe("which requests call a function under netlify dev", () => {
  it.each([
    ["GET", "/mcp/server-card", false, true],
    ["POST", "/MCP", false, true],
    ["POST", "/a2a/v1", false, true],
    ["GET", "/a2a/v1/rest/tasks", false, true],
    ["POST", "/oauth/token", false, true],
    ["POST", "/contact", false, true],
    ["GET", "/contact", false, false],
    ["POST", "/.netlify/functions/deliver-leads", false, true],
    ["POST", "/api/v1/briefs", false, false],
    ["POST", "/api/v1/briefs", true, true],
    ["GET", "/api/v1/free-times", true, true],
    ["GET", "/api/v1/bookings/bk_0123456789abcdefghjk", true, true],
    ["GET", "/api/v1/company", true, false],
    ["GET", "/.well-known/jwks.json", false, false],
    ["GET", "/.well-known/jwks.json", true, true],
    ["GET", "/.well-known/agent-card.json", true, false],
    ["GET", "/offers", true, false],
    ["GET", "/mcpx", false, false],
  ])("%s %s (handed on by an edge function: %s): %s", (method, path, passedOn, expected) => {
    expect(callsAFunction(method, path, passedOn)).toBe(expected);
  });
});
