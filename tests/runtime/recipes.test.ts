import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { clientCredentialsToken } from "../support/oauth-client.ts";

/**
 * The MCP and A2A skills followed as written, through the local runtime (URLs and examples taken from the served
 * SKILL.md). That one token works at all three resources is in tests/doors/one-token.test.ts.
 */
const base = inject("baseUrl");
const store = inject("store");

// Every client is 127.0.0.1 under netlify dev: start each test with fresh /mcp and /a2a/v1 windows.
beforeEach(async () => {
  const redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
  const keys = [...(await redis.keys("rl:mcp:*")), ...(await redis.keys("rl:a2a:*"))];
  if (keys.length > 0) await redis.del(...keys);
});

const skillBody = async (suffix: string) => {
  const index = (await (await fetch(`${base}/.well-known/agent-skills/index.json`)).json()) as { skills: { name: string; url: string }[] };
  const entry = index.skills.find((s) => s.name.endsWith(suffix))!;
  return (await fetch(new URL(entry.url, base))).text();
};

/** A client that picks the revision itself, as the skill tells one to: it probes with server/discover. */
const mcpClient = async (endpoint: string, token?: string) => {
  const client = new Client({ name: "recipe-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  );
  return client;
};

const a2aSend = (endpoint: string, body: string, token: string) =>
  fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json", "A2A-Version": "1.0", Authorization: `Bearer ${token}` },
    body,
  });

describe("the MCP recipe", () => {
  it("connects to the server the skill names, lists the tools it names and reads without a token", async () => {
    const body = await skillBody("-mcp");
    const endpoint = /^Server: (\S+), Streamable HTTP/m.exec(body)![1]!;
    const client = await mcpClient(endpoint);
    expect(client.getProtocolEra()).toBe("modern");
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const [, name] of body.matchAll(/^- `([a-z_]+)`:/gm)) expect(tools).toContain(name);
    const offers = (await client.callTool({ name: "get_offers", arguments: {} })) as CallToolResult;
    expect(offers.isError).toBeFalsy();
    expect(offers.structuredContent).toEqual(await (await fetch(`${base}/api/v1/offers`)).json());
    await client.close();
  });
});

describe("the A2A recipe", () => {
  it("sends the skill's own example brief with a token and gets a dry run back", async () => {
    const body = await skillBody("-a2a");
    const endpoint = /JSON-RPC binding at (\S+?);/.exec(body)![1]!;
    const example = /```json\n([\s\S]+?)\n```/.exec(body)![1]!;
    const { token } = await clientCredentialsToken(base, "svc:brief");
    const res = await a2aSend(endpoint, example, token);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('"dry_run":true');
  });
});
