import { describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { json } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * /a2a/v1 in-process, built as functions/a2a.ts builds it: its quota run to the end from a client address of its own, in
 * a window that starts with the test. The SDK's client over each binding is in tests/doors/a2a-bindings.test.ts and
 * tests/doors/a2a-tasks.test.ts; tests/runtime/a2a.test.ts drives the agent end to end through the local runtime.
 */
const { d, clock } = fileDeployment("local", { clock: true });

const rpc = (body: unknown, ip: string, headers: Record<string, string> = {}) =>
  d.a2a(json(body, { "a2a-version": "1.0", ...headers }), ip);

describe("limits and errors", () => {
  it("answers a path under /a2a/v1 that is neither binding with 404 and -32089, never -32603 (an internal error)", async () => {
    const res = await d.a2a(
      json({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }, { "a2a-version": "1.0" }),
      d.nextIp(),
      "/a2a/v1/tasks",
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32089 } });
  });

  it("counts 120 requests a minute per IP without a valid token (refusals counted once), then 429 with Retry-After", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    // A refused token counts against the address, as no token does.
    const refused = await rpc(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
      },
      ip,
      { authorization: `Bearer ${(await d.token("svc:brief")).slice(0, -4)}AAAA` },
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get("ratelimit")).toMatch(/^"a2a";r=119;t=\d+$/);
    const second = await rpc("{", ip);
    expect(second.headers.get("ratelimit")).toMatch(/^"a2a";r=118;t=\d+$/);
    expect(second.headers.get("ratelimit-policy")).toBe('"a2a";q=120;w=60');
    for (let i = 0; i < 117; i++) await (await rpc("{", ip)).body?.cancel();
    const last = await rpc("{", ip);
    expect(last.status).toBe(200);
    expect(last.headers.get("ratelimit")).toMatch(/^"a2a";r=0;t=\d+$/);
    const over = await rpc("{", ip);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(over.headers.get("ratelimit-reset")));
    expect(await over.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32090 } });
  });
});
