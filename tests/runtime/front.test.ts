import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, inject, it } from "vitest";
import { methodRefusal } from "../../scripts/runtime/front-refusals.ts";
import { statusOf } from "../support/http.ts";
import { doorPaths } from "../support/door-paths.ts";

/**
 * npm start's front (scripts/runtime/front.ts) under attack through the local runtime, where only it stands before
 * netlify dev: what netlify dev cannot take (an upload cut short or too large, a method no function can be handed, a
 * Host naming no host, a path no file can have, a Content-Type that parses as nothing, a charset on JSON, a write asking
 * for Markdown) must never reach it, and what the front answers itself is the door's own answer. Each kind goes through
 * once where it reaches a function: tests/doors/edges.test.ts holds every door's answer to them in-process, and
 * tests/unit/runtime-front.test.ts the front's own behaviour against a stand-in for netlify dev.
 */
const base = inject("baseUrl");
const { host, port } = new URL(base);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A request through node:http, which sends any method (fetch refuses TRACE and TRACK). */
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string, agent?: Agent) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers: { host, ...headers }, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject).end(body);
  });

/** Sends `raw` on a connection of its own and closes it before any answer, as a client that gives up mid-upload. */
async function cutShort(raw: string) {
  const socket = connect(Number(port), "127.0.0.1");
  socket.on("error", () => undefined);
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(raw);
  await sleep(100);
  socket.destroy();
  await sleep(100);
}

describe("an upload that never ends", () => {
  it.each([
    ["Content-Length: 100", '{"a":'],
    ["Transfer-Encoding: chunked", '5\r\n{"a":\r\n'],
  ])("cut short (%s) leaves netlify dev serving every later request", async (framing, part) => {
    for (const path of ["/api/v1/briefs", "/mcp", "/a2a/v1", "/oauth/token", "/contact"]) {
      await cutShort(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n${part}`);
      expect(await statusOf(`${base}/api/v1`), `after ${path}`).toBe(200);
    }
    expect(await statusOf(`${base}/offers`)).toBe(200);
    expect(await statusOf(`${base}/mcp/server-card`)).toBe(200);
  });

  it("larger than netlify dev takes whole (6,000,000 bytes) is refused in the door's format, and netlify dev keeps serving", async () => {
    const res = await send("POST", "/api/v1/briefs", { "content-type": "application/json" }, "x".repeat(6_000_001));
    expect(res.status).toBe(413);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(res.text)).toMatchObject({ code: "payload_too_large", status: 413 });
    expect(await statusOf(`${base}/api/v1`)).toBe(200);
  });
});

/** What names the condition in each door's format: a problem's code, an OAuth error, a JSON-RPC error's code or google.rpc status. */
function conditionIn(answer: Answer): unknown {
  const body = JSON.parse(answer.text) as { code?: string; error?: string | { code?: number; status?: string } };
  return body.code ?? (typeof body.error === "string" ? body.error : { code: body.error?.code, status: body.error?.status });
}

const leaksNothing = (answer: Answer) => {
  expect(answer.text).not.toMatch(/node_modules|file:\/\/|\bat (new )?\S+ \(|TypeError/);
};

describe("a body a static file would be answered with", () => {
  it("of a few megabytes, sent to a page or a prebuilt read, leaves netlify dev serving: the page's 405 or the read's answer", async () => {
    const body = "a".repeat(4_000_000);
    const page = await send("POST", "/", { "content-type": "text/plain" }, body);
    expect([page.status, page.headers.allow]).toEqual([405, "GET, HEAD"]);
    const read = await send("GET", "/api/v1/company", { "content-type": "text/plain", "content-length": String(body.length) }, body);
    expect(read.status).toBe(200);
    const offers = await send("PUT", "/offers", { "content-type": "text/plain" }, body);
    expect(offers.status).toBe(405);
    await sleep(500);
    expect(await statusOf(`${base}/api/v1`)).toBe(200);
  });

  it("names the contact form's POST among the methods /contact takes", async () => {
    for (const method of ["PATCH", "TRACE"]) {
      const res = await send(method, "/contact");
      expect([res.status, res.headers.allow], method).toEqual([405, "GET, HEAD, POST"]);
    }
  });
});

describe("a method no function can be handed (a fetch Request refuses TRACE and TRACK; Node's parser, any method it does not know)", () => {
  it.each(["TRACE", "TRACK", "FOO"])(
    "%s is refused by the front on every door's path, never handed on: 405, the door's Allow, its format",
    async (method) => {
      for (const path of doorPaths) {
        const refused = await send(method, path);
        const door = await methodRefusal(method, new URL(`${base}${path}`));
        expect([refused.status, refused.headers.allow, refused.headers["content-type"]], path).toEqual([
          405,
          door.headers.get("allow"),
          door.headers.get("content-type"),
        ]);
        expect(refused.text, path).toContain(`${method} is not supported on ${path}.`);
        leaksNothing(refused);
      }
    },
  );

  it("TRACE at /mcp is answered as the door answers DELETE there", async () => {
    const [refused, deleted] = [await send("TRACE", "/mcp"), await send("DELETE", "/mcp")];
    expect([refused.status, refused.headers.allow, refused.headers["content-type"]]).toEqual([
      deleted.status,
      deleted.headers.allow,
      deleted.headers["content-type"],
    ]);
    expect(conditionIn(refused)).toEqual(conditionIn(deleted));
  });

  it.each(["TRACE", "TRACK", "FOO"])("%s at /oauth/authorize is an OAuth error in JSON, with the door's Allow", async (method) => {
    const refused = await send(method, "/oauth/authorize");
    expect([refused.status, refused.headers.allow]).toEqual([405, "GET, HEAD, POST"]);
    expect(JSON.parse(refused.text)).toMatchObject({ error: "invalid_request" });
  });

  it.each(["TRACE", "TRACK", "FOO"])(
    "%s on the site's paths is a 405 in plain words, Markdown and the catalogs' edge function included",
    async (method) => {
      for (const [path, accept] of [
        ["/offers", "text/html"],
        ["/offers", "text/markdown"],
        ["/", "text/markdown"],
        ["/.well-known/api-catalog", "*/*"],
        ["/.well-known/ai-catalog.json", "*/*"],
      ]) {
        const refused = await send(method, path!, { accept: accept! });
        expect([refused.status, refused.headers.allow, refused.text], `${path} ${accept}`).toEqual([
          405,
          "GET, HEAD",
          "Method Not Allowed",
        ]);
      }
    },
  );

  it("TRACE with a body is answered, and the same connection then serves a GET", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const refused = await send("TRACE", "/mcp", { "content-type": "application/json", "content-length": String(ping.length) }, ping, agent);
    const read = await send("GET", "/api/v1", {}, undefined, agent);
    agent.destroy();
    expect([refused.status, read.status]).toEqual([405, 200]);
  });
});

describe("paths no endpoint serves", () => {
  it("a backslash escaped in a site path is the site's 404 page, not netlify dev's static server refusing it", async () => {
    for (const path of ["/%5Cevil.example", "/%5cevil.example", "/work/%5C..%5Coffers", "/mcp%5C"]) {
      const res = await send("GET", path, { accept: "text/html" });
      expect([res.status, res.headers["content-type"]], path).toEqual([404, "text/html; charset=utf-8"]);
      expect(res.text, path).toContain("<title>Page not found");
    }
  });

  it("the platform's own files (_headers, _redirects) are not served, however the path names them: the site's 404 page or the 404 twin", async () => {
    const paths = [
      "/_headers",
      "/_redirects",
      "/%5Fheaders",
      "/%5fheaders",
      "//_headers",
      "/./_headers",
      "/_headers?x=1",
      "/_headers/",
      "/_HEADERS",
    ];
    for (const path of paths) {
      const page = await send("GET", path, { accept: "text/html" });
      expect([page.status, page.headers["content-type"]], path).toEqual([404, "text/html; charset=utf-8"]);
      expect(page.text, path).toContain("<title>Page not found");
      const twin = await send("GET", path, { accept: "text/markdown" });
      expect([twin.status, twin.headers["content-type"]], path).toEqual([404, "text/markdown; charset=utf-8"]);
      expect(twin.text, path).toMatch(/^# That page isn't here\./);
      const head = await send("HEAD", path);
      expect(head.status, `HEAD ${path}`).toBe(404);
    }
  });

  it.each([
    ["GET", "/oauth/token/", "application/json", { error: "invalid_request" }],
    ["POST", "/mcp/nope", "application/json", { error: { code: -32089 } }],
    // /a2a/v1/rest itself (the URL the agent card lists) describes the binding: tests/runtime/published-urls.test.ts.
    ["GET", "/a2a/v1/rest/", "application/a2a+json", { error: { code: 404, status: "NOT_FOUND" } }],
  ])("%s %s reaches the door: its not_found, in its format", async (method, path, type, body) => {
    const res = await send(method, path, { "content-type": "application/json" }, method === "POST" ? "{}" : undefined);
    expect([res.status, res.headers["content-type"]?.split(";")[0]]).toEqual([404, type]);
    expect(JSON.parse(res.text)).toMatchObject(body);
  });
});

describe("what netlify dev's own servers trip on", () => {
  it("a Host header that names no host, or none, is a 400 in plain words before any door, and netlify dev keeps serving", async () => {
    for (const path of ["/api/v1/company", "/mcp"]) {
      const res = await send("GET", path, { host: "[::1" });
      expect([res.status, res.headers["content-type"], res.text], path).toEqual([400, "text/plain; charset=utf-8", "Bad Request"]);
    }
    expect((await send("GET", "/api/v1/company")).status).toBe(200);
  });

  it("a charset on a JSON body, which means nothing for JSON (RFC 8259 §11), is read as UTF-8 as the function reads it, never body-parser's page", async () => {
    const res = await send("POST", "/api/v1/briefs", { "content-type": "application/json; charset=klingon" }, "{}");
    expect(res.headers["content-type"]).toMatch(/json/);
    expect(res.text).not.toMatch(/UnsupportedMediaTypeError|<pre>|charset/i);
  });

  it("a Content-Type that parses as nothing is answered, and the site keeps serving", async () => {
    const odd = await send("GET", "/", { "content-type": ";;;" });
    expect(odd.status).toBe(200);
    expect(await statusOf(`${base}/`)).toBe(200);
  });

  it("a contact form that asks for Markdown is answered by its function, not as a static file", async () => {
    const res = await send(
      "POST",
      "/contact",
      { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", accept: "text/markdown" },
      "full_name=A&company_name=B&work_email=c%40example.com",
    );
    expect(res.status).toBe(403);
    expect(res.text).toContain("Not sent");
  });

  it("a path segment longer than a file name can be is not found, in the door's format or as the site's 404 page", async () => {
    const long = "x".repeat(8000);
    const api = await send("GET", `/api/v1/case-studies/${long}`);
    expect([api.status, api.headers["content-type"]]).toEqual([404, "application/problem+json"]);
    const site = await send("GET", `/work/${long}`, { accept: "text/html" });
    expect([site.status, site.headers["content-type"]]).toEqual([404, "text/html; charset=utf-8"]);
    expect(site.text).not.toContain("FST_");
  });
});
