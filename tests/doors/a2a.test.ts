import { describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { json } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * /a2a/v1 in-process, built as functions/a2a.ts builds it: the brief's challenge, hostile params answered in words, and
 * its quota run to the end from a client address of its own, in a window that starts with the test. The SDK's client
 * over each binding is in tests/doors/a2a-bindings.test.ts and tests/doors/a2a-tasks.test.ts; tests/runtime/a2a.test.ts
 * drives the agent end to end through the local runtime.
 */
const { d, clock } = fileDeployment("local", { clock: true });

const rpc = (body: unknown, ip: string, headers: Record<string, string> = {}) =>
  d.a2a(json(body, { "a2a-version": "1.0", ...headers }), ip);

describe("the brief's challenge", () => {
  it("refuses a brief without a token: 401 with the A2A resource's challenge, and a JSON-RPC error", async () => {
    const res = await rpc(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "SendMessage",
        params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
      },
      d.nextIp(),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer scope="svc:brief", resource_metadata="${d.baseUrl}/.well-known/oauth-protected-resource/a2a/v1"`,
    );
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32091 } });
  });
});

describe("hostile params", () => {
  it("names the states ListTasks filters by when the status is none of them, never the decoder's -1", async () => {
    const res = await rpc({ jsonrpc: "2.0", id: 52, method: "ListTasks", params: { status: "NOPE" } }, d.nextIp(), {
      authorization: `Bearer ${await d.token("svc:read")}`,
    });
    const { error } = (await res.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(
      /params\.status must be one of TASK_STATE_UNSPECIFIED, TASK_STATE_SUBMITTED, .*TASK_STATE_AUTH_REQUIRED\./,
    );
    expect(error.message).not.toContain("-1");
  });

  it("refuses an id longer than 256 characters anywhere, before anything is stored, and echoes none", async () => {
    const long = "c".repeat(257);
    const token = await d.token("svc:brief");
    const send = (message: Record<string, unknown>) =>
      rpc(
        {
          jsonrpc: "2.0",
          id: 51,
          method: "SendMessage",
          params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }], ...message } },
        },
        d.nextIp(),
        { authorization: `Bearer ${token}` },
      );
    const answers = [
      await send({ contextId: long }),
      await send({ messageId: long }),
      await send({ taskId: long }),
      await send({ referenceTaskIds: [long] }),
      await rpc({ jsonrpc: "2.0", id: 51, method: "GetTask", params: { id: long } }, d.nextIp()),
      await rpc({ jsonrpc: "2.0", id: 51, method: "tasks/get", params: { id: long } }, d.nextIp(), { "a2a-version": "" }),
    ];
    for (const res of answers) {
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ id: 51, error: { code: -32602, message: expect.stringMatching(/at most 256 characters/) } });
      expect(text).not.toContain(long);
    }
  });

  it("answers them with invalid params in words, never -32603 or an engine's text: a data part 30,000 deep, a 0.3 task id that is a number", async () => {
    const deep = (version?: string) =>
      rpc(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 41,
          method: version ? "SendMessage" : "message/send",
          params: {
            message: version
              ? { messageId: "m", role: "ROLE_USER", parts: [{ data: "DEEP" }] }
              : { kind: "message", messageId: "m", role: "user", parts: [{ kind: "data", data: "DEEP" }] },
          },
        }).replace('"DEEP"', `${"[".repeat(30_000)}1${"]".repeat(30_000)}`),
        d.nextIp(),
        { "a2a-version": version ?? "" },
      );
    for (const res of [await deep("1.0"), await deep()]) {
      const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(answer).toMatchObject({ id: 41, error: { code: -32602 } });
      expect(answer.error.message).toMatch(/more than 32 levels/);
    }
    const legacy = await rpc({ jsonrpc: "2.0", id: 42, method: "tasks/get", params: { id: 1 } }, d.nextIp(), { "a2a-version": "" });
    expect(await legacy.json()).toMatchObject({ id: 42, error: { code: -32602, message: "Invalid params: params.id must be a string." } });
  });

  it("answers a 1.0 id or message field that is not a string with invalid params naming it, never an id made of it", async () => {
    const auth = { authorization: `Bearer ${await d.token("svc:brief")}` };
    const calls = [
      [{ method: "GetTask", params: { id: {} } }, "params.id must be a string."],
      [{ method: "CancelTask", params: { id: [1] } }, "params.id must be a string."],
      [{ method: "ListTasks", params: { contextId: {} } }, "params.contextId must be a string."],
      [
        { method: "SendMessage", params: { message: { messageId: "m", taskId: {}, role: "ROLE_USER", parts: [{ text: "hi" }] } } },
        "params.message.taskId must be a string.",
      ],
      [
        { method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: { a: 1 } }] } } },
        "params.message.parts[0].text must be a string.",
      ],
    ] as const;
    for (const [call, message] of calls) {
      const answer = await (await rpc({ jsonrpc: "2.0", id: 43, ...call }, d.nextIp(), auth)).json();
      expect(answer, JSON.stringify(call)).toEqual({
        jsonrpc: "2.0",
        id: 43,
        error: expect.objectContaining({ code: -32602, message: `Invalid params: ${message}` }),
      });
    }
    const rest = await d.a2a(
      {
        method: "POST",
        headers: { "content-type": "application/a2a+json", "a2a-version": "1.0", ...auth },
        body: JSON.stringify({ message: { messageId: {}, role: "ROLE_USER", parts: [{ data: freshBrief() }] } }),
      },
      d.nextIp(),
      "/a2a/v1/rest/message:send",
    );
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT", message: "Invalid params: message.messageId must be a string." },
    });
  });
  it("answers a 1.0 number or string field holding an object the SDK's decoder cannot convert with invalid params", async () => {
    const auth = { authorization: `Bearer ${await d.token("svc:brief")}` };
    const unconvertible = { toString: "" };
    const calls = [
      { method: "GetTask", params: { id: "x", historyLength: unconvertible } },
      { method: "ListTasks", params: { pageSize: unconvertible } },
      {
        method: "SendMessage",
        params: {
          message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] },
          configuration: { historyLength: unconvertible },
        },
      },
    ];
    for (const call of calls) {
      const answer = await (await rpc({ jsonrpc: "2.0", id: 44, ...call }, d.nextIp(), auth)).json();
      expect(answer, JSON.stringify(call)).toEqual({
        jsonrpc: "2.0",
        id: 44,
        error: expect.objectContaining({ code: -32602, message: expect.stringMatching(/^Invalid params: .*number or a string/) }),
      });
    }
    const rest = await d.a2a(
      {
        method: "POST",
        headers: { "content-type": "application/a2a+json", "a2a-version": "1.0", ...auth },
        body: JSON.stringify({
          message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] },
          configuration: { historyLength: unconvertible },
        }),
      },
      d.nextIp(),
      "/a2a/v1/rest/message:send",
    );
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  });
});

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

  it.each([true, { a: 1 }, 1.5, [1]])("refuses the id %j with -32600 and id null, before any method runs", async (id) => {
    const res = await rpc({ jsonrpc: "2.0", id, method: "GetTask", params: { id: "x" } }, d.nextIp());
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
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
