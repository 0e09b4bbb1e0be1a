import {
  createMcpHandler,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type ClientCapabilities,
} from "@modelcontextprotocol/server";
import { beforeAll, describe, expect, it } from "vitest";
import { mcpServerFrom, mcpServerParts, type McpServerParts } from "../../src/mcp/server.ts";
import { skillsCatalog } from "../../src/mcp/skills.ts";
import type { Tool, ToolCall } from "../../src/mcp/tool.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";

const base = "https://studio.example";
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "who_calls", arguments: {} } };

/** A tool that keeps what each call told it. */
function recordingTool(calls: ToolCall[]): Tool {
  const schema = { type: "object" as const, properties: {}, additionalProperties: false };
  return {
    name: "who_calls",
    title: "Who calls",
    description: "Records its call.",
    inputSchema: schema,
    outputSchema: schema,
    annotations: { readOnlyHint: true },
    run: async (_args, toolCall) => (calls.push(toolCall), { content: [{ type: "text", text: "recorded" }] }),
  };
}

const auth = (clientId: string): AuthInfo => ({
  token: "t",
  clientId,
  scopes: ["svc:read"],
  extra: { grantId: `ga_${clientId}`, address: "203.0.113.5" },
});

/** A 2025-era request, served as /mcp serves it: a server from the parts and a stateless transport of its own. */
async function legacy(parts: McpServerParts, body: object, authInfo?: AuthInfo) {
  const server = mcpServerFrom(parts, "legacy");
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const request = new Request(`${base}/mcp`, {
    method: "POST",
    headers: { ...headers, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify(body),
  });
  const response = await transport.handleRequest(request, { authInfo });
  await server.close();
  return (await response.json()) as { result?: Record<string, unknown> };
}

/** A 2026-07-28 tools/call through the SDK's own entry, declaring `capabilities` in its envelope. */
async function modern(parts: McpServerParts, capabilities: ClientCapabilities, authInfo?: AuthInfo) {
  const entry = createMcpHandler(({ era }) => mcpServerFrom(parts, era), { legacy: "reject" });
  const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": capabilities };
  const request = new Request(`${base}/mcp`, {
    method: "POST",
    headers: { ...headers, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "who_calls" },
    body: JSON.stringify({ ...call, params: { ...call.params, _meta: envelope } }),
  });
  const response = await entry.fetch(request, { authInfo });
  expect(response.status).toBe(200);
}

let prebuilt: ReturnType<typeof prebuiltResources>;
beforeAll(async () => {
  prebuilt = prebuiltResources(buildSite(await loadContentDir("content"), base));
});

// The parts are built once per deploy and shared by every request's server: only the request may say who calls, in
// which era, with what capabilities.
describe("servers built from shared parts", () => {
  it("give each call its own caller, era and client capabilities, whatever the calls before them were", async () => {
    const calls: ToolCall[] = [];
    const parts = mcpServerParts(prebuilt, [recordingTool(calls)]);
    const before = JSON.stringify({ info: parts.info, options: parts.options, listed: parts.listed });

    // A 2025-era handshake declares capabilities, and a log level is set: both belong to that request's server alone.
    const initialized = await legacy(parts, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "first", version: "1" } },
    });
    expect(initialized.result).toMatchObject({ serverInfo: parts.info });
    await legacy(parts, { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } });
    await legacy(parts, call, auth("first"));
    await modern(parts, { elicitation: { form: {} } }, auth("second"));
    await legacy(parts, call);
    await modern(parts, {});

    expect(calls.map(({ caller, era, clientCapabilities }) => ({ client: caller?.clientId, era, clientCapabilities }))).toEqual([
      { client: "first", era: "legacy", clientCapabilities: undefined },
      { client: "second", era: "modern", clientCapabilities: { elicitation: { form: {} } } },
      { client: undefined, era: "legacy", clientCapabilities: undefined },
      { client: undefined, era: "modern", clientCapabilities: {} },
    ]);
    expect(calls[0]!.caller).toMatchObject({ grantId: "ga_first", address: "203.0.113.5" });
    // No form can be asked without the signed state between rounds.
    expect(calls.every((c) => c.rounds === undefined)).toBe(true);
    // Serving them changed nothing that the next request's server is built from.
    expect(JSON.stringify({ info: parts.info, options: parts.options, listed: parts.listed })).toBe(before);
  });

  it("are new instances, never connected when they are handed out", () => {
    const parts = mcpServerParts(prebuilt, []);
    const first = mcpServerFrom(parts, "modern");
    const second = mcpServerFrom(parts, "modern");
    expect(first).not.toBe(second);
    expect(first.server).not.toBe(second.server);
    expect(second.isConnected()).toBe(false);
  });
});

describe("the skills on a request's server", () => {
  const skillFiles = { "demo/SKILL.md": "---\nname: demo\ndescription: A skill for this test.\n---\n\nDo the demo.\n" };
  const extensions = (parts: McpServerParts, era: "legacy" | "modern", method?: string) =>
    mcpServerFrom(parts, era, method).server.getCapabilities().extensions;

  it("are attached for every method that may need them, and left out of tools and prompts", async () => {
    const parts = mcpServerParts(prebuilt, [], undefined, await skillsCatalog(skillFiles));
    for (const era of ["legacy", "modern"] as const) {
      for (const method of ["initialize", "server/discover", "resources/list", "resources/read", "skills/list", undefined])
        expect(extensions(parts, era, method), `${era} ${method}`).toHaveProperty(["io.modelcontextprotocol/skills"]);
      for (const method of ["tools/list", "tools/call", "prompts/list", "prompts/get", "ping"])
        expect(extensions(parts, era, method), `${era} ${method}`).toBeUndefined();
    }
  });

  it("are attached to a 2026-07-28 skills request whatever its header claims: the SDK refuses a header the body belies", async () => {
    const methods: (string | undefined)[] = [];
    const parts = mcpServerParts(prebuilt, [], undefined, await skillsCatalog(skillFiles));
    const entry = createMcpHandler(
      ({ era, requestInfo }) => {
        const method = requestInfo?.headers.get("mcp-method") ?? undefined;
        methods.push(method);
        return mcpServerFrom(parts, era, method);
      },
      { legacy: "reject" },
    );
    const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const ask = (header: string) =>
      entry.fetch(
        new Request(`${base}/mcp`, {
          method: "POST",
          headers: { ...headers, "mcp-protocol-version": "2026-07-28", "mcp-method": header },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: envelope } }),
        }),
      );
    expect((await ask("tools/list")).status).toBe(400);
    expect(methods).toEqual([]);
    const listed = await ask("skills/list");
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { skills: { uri: string }[] } }).result.skills.map((s) => s.uri)).toEqual([
      "skill://demo/SKILL.md",
    ]);
    expect(methods).toEqual(["skills/list"]);
  });
});
