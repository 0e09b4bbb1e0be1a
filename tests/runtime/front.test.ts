import { request, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, inject, it } from "vitest";
import { statusOf } from "../support/http.ts";

/**
 * npm start's front (scripts/runtime/front.ts) under attack through the local runtime: what netlify dev cannot take
 * must never reach it, and what the front answers itself is the door's own answer. The front's own behaviour against a
 * stand-in for netlify dev is in tests/unit/runtime-front.test.ts.
 */
const base = inject("baseUrl");
const { host, port } = new URL(base);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A request through node:http, which sends any method (fetch refuses TRACE and TRACK). */
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers: { host, ...headers } }, (res) => {
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
  await sleep(300);
  socket.destroy();
  await sleep(300);
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
