import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { a2aHandlerFromEnv } from "../../src/a2a/from-env.ts";
import { oauthHandlerFromEnv } from "../../src/oauth/from-env.ts";
import { a2aSend, expectRpcError, json, mcpCall, mcpHeaders } from "../support/calls.ts";
import { redisDatabase } from "./support/databases.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/** Cases the fuzzers found, kept as plain tests. */
let d: Deployment;
beforeAll(async () => {
  d = await startDeployment(redisDatabase.regressions);
});
afterAll(() => d.close());

describe("found by fuzzing /mcp", () => {
  it("answers a read with an empty or broken Authorization header with 401 and the request's id", async () => {
    for (const authorization of ["", "Bearer", "Basic x"]) {
      const res = await d.mcp(mcpCall("resources/read", { uri: "" }, "req-7", { authorization }));
      expect(res.status).toBe(401);
      expect((await expectRpcError(res, "req-7")).error.code).toBe(-32091);
    }
  });

  it("answers a request carrying a member JSON-RPC does not define, instead of a parse error with a null id", async () => {
    const res = await d.mcp(json({ jsonrpc: "2.0", id: 9, method: "ping", extra: "" }, mcpHeaders));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
  });

  it("calls a message with params that are not an object an Invalid Request (-32600), not a parse error", async () => {
    const res = await d.mcp(json({ jsonrpc: "2.0", id: 9, method: "ping", params: "" }, mcpHeaders));
    expect(res.status).toBe(400);
    expect((await expectRpcError(res, 9)).error.code).toBe(-32600);
  });

  it("answers an unsupported MCP-Protocol-Version with the request's id", async () => {
    const res = await d.mcp(mcpCall("tools/list", {}, "v", { "mcp-protocol-version": "1999-01-01" }));
    expect(res.status).toBe(400);
    await expectRpcError(res, "v");
  });
});

describe("found by fuzzing /a2a/v1", () => {
  it("answers a 1.0 message with a part that is not an object with invalid params, never a crash", async () => {
    for (const part of [null, 1, "text", []]) {
      const res = await d.a2a(a2aSend([part]));
      expect(res.status).toBe(200);
      expect((await expectRpcError(res, 7)).error.code).toBe(-32602);
    }
  });

  it("answers a message whose messageId or taskId is an object that cannot become a string with invalid params, not a 503", async () => {
    for (const field of ["messageId", "taskId", "contextId"]) {
      const message = { messageId: "m-1", role: "ROLE_USER", parts: [{ data: "" }], [field]: { toString: false } };
      const res = await d.a2a(json({ jsonrpc: "2.0", id: 7, method: "SendMessage", params: { message } }, { "a2a-version": "1.0" }));
      expect(res.status, field).toBe(200);
      expect((await expectRpcError(res, 7)).error.code, field).toBe(-32602);
    }
    // A skill named by something other than a string is a skill that does not exist, whatever it is.
    for (const message of [
      { messageId: "m-2", role: "ROLE_USER", parts: [{ text: "hello" }], metadata: { skillId: { toString: false } } },
      { messageId: "m-3", role: "ROLE_USER", parts: [{ data: { skill: { toString: false } } }] },
    ]) {
      const res = await d.a2a(json({ jsonrpc: "2.0", id: 7, method: "SendMessage", params: { message } }, { "a2a-version": "1.0" }));
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain("There is no skill");
    }
    // The HTTP+JSON binding, for the same message.
    const message = { messageId: { toString: false }, role: "ROLE_USER", parts: [{ data: "" }] };
    const rest = await d.a2a(json({ message }, { "a2a-version": "1.0" }), undefined, "/a2a/v1/rest/message:send");
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { status: "INVALID_ARGUMENT" } });
    // A2A 0.3's compatibility layer, for the same message.
    const legacy = { kind: "message", messageId: { toString: false }, role: "user", parts: [{ kind: "text", text: "offers" }] };
    const res = await d.a2a(json({ jsonrpc: "2.0", id: 8, method: "message/send", params: { message: legacy } }, { "a2a-version": "0.3" }));
    expect(res.status).toBe(200);
    expect((await expectRpcError(res, 8)).error.code).toBe(-32602);
  });
});

describe("found by fuzzing /a2a/v1, after the gate checked params by method", () => {
  it("answers a method named after a member every object inherits as not found, in both versions", async () => {
    for (const [method, version] of [
      ["valueOf", "1.0"],
      ["constructor", "1.0"],
      ["toString", "0.3"],
      ["hasOwnProperty", "0.3"],
    ]) {
      const res = await d.a2a(json({ jsonrpc: "2.0", id: 5, method, params: {} }, { "a2a-version": version! }));
      expect(res.status, method).toBe(200);
      expect((await expectRpcError(res, 5)).error.code, method).toBe(-32601);
    }
  });

  it("answers an unknown method without params as not found (-32601), not as invalid params, in both versions", async () => {
    for (const [method, version] of [
      ["DeleteEverything", "1.0"],
      ["tasks/delete", "0.3"],
      ["SendMessage", "0.3"],
      ["message/send", "1.0"],
    ]) {
      const res = await d.a2a(json({ jsonrpc: "2.0", id: 6, method }, { "a2a-version": version! }));
      expect(res.status, method).toBe(200);
      expect((await expectRpcError(res, 6)).error, method).toMatchObject({ code: -32601, message: expect.stringContaining(version!) });
    }
  });
});

describe("found by the Upstash fault cases", () => {
  it("answers a misconfigured A2A agent in JSON-RPC (503, -32093), not with a problem document", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const handler = a2aHandlerFromEnv((name) => ({ URL: "https://studio.example" })[name], d.resources);
      const res = await handler(new Request("https://studio.example/a2a/v1", a2aSend([{ text: "offers" }])), {
        ip: "10.9.9.9",
        waitUntil: () => {},
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("300");
      expect((await expectRpcError(res)).error.code).toBe(-32093);
      expect(log).toHaveBeenCalledWith(expect.stringContaining("CONFIGURATION ERROR"));
    } finally {
      log.mockRestore();
    }
  });

  it("answers a misconfigured authorization server in the OAuth error format (503 server_error), not with a problem document", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const handler = oauthHandlerFromEnv((name) => ({ URL: "https://studio.example" })[name]);
      const res = await handler(
        new Request("https://studio.example/oauth/token", {
          method: "POST",
          body: new URLSearchParams({ grant_type: "client_credentials" }),
        }),
        { ip: "10.9.9.9", waitUntil: () => {} },
      );
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("retry-after")).toBe("300");
      expect(await res.json()).toMatchObject({ error: "server_error" });
      expect(log).toHaveBeenCalledWith(expect.stringContaining("CONFIGURATION ERROR"));
    } finally {
      log.mockRestore();
    }
  });
});
