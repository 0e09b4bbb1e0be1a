import { settingsFrom } from "../../src/config/settings.ts";
import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { conditionOf, conditions, type ConditionName } from "../../src/http/conditions.ts";
import { prefersEventStream } from "../../src/mcp/accept.ts";
import { scopesNeeded } from "../../src/mcp/auth-gate.ts";
import { allowedOriginsFrom } from "../../src/mcp/origins.ts";

describe("JSON or an event stream", () => {
  it.each([
    [null, false],
    ["application/json, text/event-stream", false],
    ["application/json", false],
    ["*/*", false],
    ["text/event-stream", true],
    ["application/json;q=0.5, text/event-stream", true],
    ["text/event-stream;q=0", false],
    ["text/*", false],
    ["TEXT/EVENT-STREAM", true],
    ["application/*;q=0.5, text/event-stream", true],
    ['text/event-stream, application/json;profile="a,b";q=0.5', true],
    ["text/event-stream;q=abc", false],
  ])("Accept %s -> event stream %s", (accept, expected) => expect(prefersEventStream(accept)).toBe(expected));
});

describe("the auth gate", () => {
  const call = (name: string, id: unknown = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
  it("asks svc:brief for the writes (the brief, booking and cancelling a call), and names the request's id for a refusal", () => {
    expect(scopesNeeded(call("book_intro_call", "b"))).toEqual({ scopes: ["svc:brief"], id: "b" });
    expect(scopesNeeded(call("cancel_intro_call"))).toEqual({ scopes: ["svc:brief"], id: 1 });
    expect(scopesNeeded(call("list_free_times")).scopes).toEqual([]);
    // A name that is not a string names no tool, and is never turned into one (an array 20,000 deep would overflow).
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(scopesNeeded({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: deep } }).scopes).toEqual([]);
    expect(scopesNeeded({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: ["submit_project_brief"] } }).scopes).toEqual([]);
    expect(scopesNeeded(call("submit_project_brief", "a"))).toEqual({ scopes: ["svc:brief"], id: "a" });
    expect(scopesNeeded([call("get_company"), call("submit_project_brief", 3)])).toEqual({ scopes: ["svc:brief"], id: 3 });
    expect(scopesNeeded(call("get_company"))).toEqual({ scopes: [], id: 1 });
    expect(scopesNeeded([call("get_company")])).toEqual({ scopes: [], id: null });
    expect(scopesNeeded({ jsonrpc: "2.0", id: 1, method: "tools/list" }).scopes).toEqual([]);
    expect(scopesNeeded(null).scopes).toEqual([]);
    expect(scopesNeeded("text").scopes).toEqual([]);
  });
});

describe("allowed origins", () => {
  it("follow the configuration, with Netlify's deploy URLs", () => {
    const env = (name: string) =>
      ({ DEPLOY_URL: "https://abc--kestrel.netlify.app", DEPLOY_PRIME_URL: "https://main--kestrel.netlify.app", SITE_NAME: "kestrel" })[
        name
      ];
    expect(allowedOriginsFrom(settingsFrom(env), "https://kestrel.studio")).toEqual([
      "https://kestrel.studio",
      "https://abc--kestrel.netlify.app",
      "https://main--kestrel.netlify.app",
      "https://kestrel.netlify.app",
    ]);
    expect(
      allowedOriginsFrom(
        settingsFrom(() => undefined),
        "http://localhost:8888/",
      ),
    ).toEqual(["http://localhost:8888"]);
  });
});

describe("JSON-RPC error numbers", () => {
  it("are JSON-RPC's own where it defines the condition, MCP's or A2A's own for the same meaning, else ours, never another SDK's", () => {
    // The SDK's numbers, and SEP-2243's header mismatch (-32020), which the SDK answers but does not list there.
    const sdk = new Set([
      ...Object.values(ProtocolErrorCode).filter((v) => typeof v === "number"),
      -32020,
      ...Object.values(A2A_ERROR_CODE),
    ]);
    const jsonRpc = new Map<number, string>([
      // A2A's own (its SDK's names, in snake case), for the same conditions A2A defines them for.
      ...Object.entries(A2A_ERROR_CODE).map(([name, code]) => [code, name.toLowerCase()] as [number, string]),
      [-32700, "invalid_json"],
      [-32600, "invalid_request"],
      // MCP's header mismatch (SEP-2243), for the same condition the SDK answers it for.
      [-32020, "header_mismatch"],
    ]);
    for (const [name, condition] of Object.entries(conditions)) {
      const rpc = conditionOf(name as ConditionName).rpc;
      // OAuth's own rows are refused under /oauth only, with no JSON-RPC number.
      if (rpc === undefined) continue;
      if (rpc === -32602)
        expect(
          ["invalid_params", "nested_too_deep", "invalid_brief", "invalid_booking", "invalid_query", "invalid_idempotency_key"],
          name,
        ).toContain(name);
      else if (jsonRpc.has(rpc)) expect(jsonRpc.get(rpc), name).toBe(name);
      else {
        expect(rpc, name).toBeGreaterThanOrEqual(-32099);
        expect(rpc, name).toBeLessThanOrEqual(-32086);
        expect(sdk.has(rpc), name).toBe(false);
      }
    }
    expect(sdk.has(-32022)).toBe(true);
  });
});
