import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRpcError, json, mcpCall, mcpHeaders } from "./support/calls.ts";
import { startDeployment, type Deployment } from "./support/deployment.ts";

/** Cases the fuzzers found, kept as plain tests. */
let d: Deployment;
beforeAll(async () => {
  d = await startDeployment(15);
});
afterAll(() => d.close());

describe("found by fuzzing /mcp", () => {
  it("answers a read with an empty or broken Authorization header with 401 and the request's id", async () => {
    for (const authorization of ["", "Bearer", "Basic x"]) {
      const res = await d.mcp(mcpCall("resources/read", { uri: "" }, "req-7", { authorization }));
      expect(res.status).toBe(401);
      expect((await expectRpcError(res, "req-7")).error.code).toBe(-32001);
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
