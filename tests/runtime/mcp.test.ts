import { randomUUID } from "node:crypto";
import { ClientCredentialsProvider, type CallToolResult, type Client, type ElicitResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { freshBrief } from "../support/briefs.ts";
import { connectMcp, connectShowingForms, eras, expectReadsEverything, text } from "../support/mcp-client.ts";
import { clientCredentialsToken, discover, register } from "../support/oauth-client.ts";
import type { SentMessage } from "../support/postmark-standin.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * /mcp through the local runtime: the v2 SDK's own client in both protocol eras (pinned to 2026-07-28, and in its legacy
 * mode), the OAuth server, the brief pipeline and Postmark's stand-in. Its quota run to the 121st request and the HTTP
 * layer's refusals in both eras are in tests/doors/mcp.test.ts, with a client address and a window of their own.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const endpoint = `${base}/mcp`;
const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;

// The emulator gives every client 127.0.0.1: each test starts from a fresh /mcp quota (files run one at a time).
beforeEach(async () => {
  const keys = await store.keys("rl:mcp:*");
  if (keys.length > 0) await store.del(...keys);
});

const legacy = eras.find((e) => e.era === "legacy")!;
const rest = async (url: string) => (await fetch(url)).json();

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const call = (name: string, args: object = {}, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const messages = async () => (await (await fetch(`${postmark}/_standin/messages`)).json()) as { attempts: number; sent: SentMessage[] };
const sentFor = async (leadId: string) =>
  (await messages()).sent.filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === leadId);

describe.each(eras)("a v2 client $mode, given only /mcp", (era) => {
  it("connects in its era and reads everything: every tool, resource and prompt, the same JSON as the REST reads", async () => {
    const client = await connectMcp(endpoint, era);
    expect(client.getProtocolEra()).toBe(era.era);
    await expectReadsEverything(client, base, rest);
    await client.close();
  });

  it("reads with a valid token that has only svc:read", async () => {
    const { token } = await clientCredentialsToken(base, "svc:read", endpoint);
    const client = await connectMcp(endpoint, era, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    expect((await client.listTools()).tools.length).toBe(7);
    await client.close();
  });
});

describe("the raw wire", () => {
  it("answers JSON when the client accepts only JSON, and an event stream when it prefers one", async () => {
    const json = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { Accept: "application/json" });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });

    const sse = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { Accept: "text/event-stream" });
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    expect(await sse.text()).toMatch(/^event: message\ndata: \{"result":\{\},"jsonrpc":"2.0","id":2\}/m);
  });

  it("reads the Accept header with a real parser: a comma inside a quoted parameter does not split a range", async () => {
    const sse = await post(
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { Accept: 'text/event-stream, application/json;profile="a,b";q=0.5' },
    );
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    await sse.body?.cancel();
    const json = await post({ jsonrpc: "2.0", id: 4, method: "ping" }, { Accept: "text/*, application/json;q=0.5" });
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    await json.body?.cancel();
  });
});

describe("authentication", () => {
  let readOnly: string;
  beforeAll(async () => {
    readOnly = (await clientCredentialsToken(base, "svc:read", endpoint)).token;
  });

  it("files nothing without a token: 401 with resource_metadata and scope, so the client starts the OAuth flow", async () => {
    const res = await post(call("submit_project_brief", freshBrief()));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer scope="svc:brief", resource_metadata="${metadataUrl}"`);
    expect(res.headers.get("ratelimit-policy")).toBe('"mcp";q=120;w=60');
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32091, data: { code: "invalid_token" } } });
  });

  it("refuses a token that fails verification with 401, even on a read", async () => {
    const res = await post({ jsonrpc: "2.0", id: 7, method: "tools/list" }, { Authorization: `Bearer ${readOnly.slice(0, -4)}AAAA` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="([^"]+)"$/,
    );
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${metadataUrl}"`);
  });

  it("steps up a token without svc:brief with 403 insufficient_scope, arriving unchanged through the emulator", async () => {
    const { result: res, calls } = await functionCallsDuring(base, inject("netlifyDevLog"), () =>
      post(call("submit_project_brief", freshBrief(), "s1"), { Authorization: `Bearer ${readOnly}` }),
    );
    expect(res.status).toBe(403);
    // netlify dev calls a function again at `/mcp.html` and like paths after a 403; behind npm start's front it must not.
    expect(calls.filter((c) => c.includes("/mcp"))).toEqual(["POST /mcp"]);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks the scope svc:brief.", scope="svc:brief", resource_metadata="${metadataUrl}"`,
    );
    expect(await res.json()).toMatchObject({ id: "s1", error: { code: -32092, data: { code: "insufficient_scope" } } });
    // The emulator's retries of the 403 (at /mcp.html and the like) are not counted again: counted once, in whatever
    // window they fell (the next request shows 118 left, or 119 in a window that started meanwhile).
    expect(res.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    expect(await countedFor(store, "mcp", localClient)).toBe(1);
    const next = await post({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(next.headers.get("ratelimit")).toMatch(/^"mcp";r=11[89];t=\d+$/);
    expect(await countedFor(store, "mcp", localClient)).toBe(2);
  });
});

describe.each(eras)("filing through the SDK's client-side OAuth (client_credentials), a client $mode", (era) => {
  let client: Client;
  beforeAll(async () => {
    const registered = await register(await discover(base), {
      client_name: "mcp test machine client",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_post",
    });
    const authProvider = new ClientCredentialsProvider({
      clientId: registered.client_id,
      clientSecret: registered.client_secret as string,
      expectedIssuer: base,
      scope: "svc:brief",
    });
    // Reads go without a token; the first brief meets the 401 and the SDK fetches a token, then retries.
    client = await connectMcp(endpoint, era, { authProvider });
  });

  it("dry_run: validated, and says plainly that nothing was filed and nobody e-mailed", async () => {
    const before = { leads: await store.zcard("leads"), attempts: (await messages()).attempts };
    const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
    expect(text(result)).toContain("Nothing was filed and nobody was e-mailed");
    expect(await store.zcard("leads")).toBe(before.leads);
    expect((await messages()).attempts).toBe(before.attempts);
  });

  it("files a real brief that reaches the inbox exactly once, recorded as an MCP lead", async () => {
    const brief = freshBrief({ site_size: "growth-site", message: "A new site for our clinics." });
    const result = (await client.callTool({ name: "submit_project_brief", arguments: brief })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const receipt = result.structuredContent as { lead_id: string; status: string; next_steps: string };
    expect(receipt).toMatchObject({ status: "received", lead_id: expect.stringMatching(/^lead_/) });
    expect(receipt.next_steps).toContain(brief.work_email);
    expect(text(result)).toContain(receipt.lead_id);
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length), { timeout: 10_000 }).toBe(1);
    expect((await sentFor(receipt.lead_id))[0]!.body).toMatchObject({ To: "leads@studio.example", ReplyTo: brief.work_email });
    expect((await store.get<Lead>(`lead:${receipt.lead_id}`))?.channel).toBe("mcp");
  });

  it("replays a retry with the same idempotency_key instead of filing twice", async () => {
    const brief = freshBrief();
    const key = randomUUID();
    const first = (await client.callTool({
      name: "submit_project_brief",
      arguments: { ...brief, idempotency_key: key },
    })) as CallToolResult;
    const again = (await client.callTool({
      name: "submit_project_brief",
      arguments: { ...brief, idempotency_key: key },
    })) as CallToolResult;
    expect((again.structuredContent as { lead_id: string }).lead_id).toBe((first.structuredContent as { lead_id: string }).lead_id);
  });

  it("names every offending field in an isError result, so a model can fix and retry", async () => {
    const result = (await client.callTool({
      name: "submit_project_brief",
      arguments: { company_name: "", work_email: "nope", colour: "blue" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const said = text(result);
    expect(said).toContain("NOT filed");
    for (const line of ["/full_name (required)", "/company_name (too_short)", "/work_email (invalid_format)", "/colour (unknown_field)"])
      expect(said).toContain(line);
  });
});

describe("the person confirms their own brief: a client pinned to 2026-07-28 that shows forms", () => {
  const modern = eras.find((e) => e.era === "modern")!;
  let forms: Awaited<ReturnType<typeof connectShowingForms>>;
  /** What the person does with the next form; each test says. */
  let person: () => ElicitResult = () => ({ action: "cancel" });
  beforeAll(async () => {
    const registered = await register(await discover(base), {
      client_name: "mcp test client that shows forms",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_post",
    });
    const authProvider = new ClientCredentialsProvider({
      clientId: registered.client_id,
      clientSecret: registered.client_secret as string,
      expectedIssuer: base,
      scope: "svc:brief",
    });
    forms = await connectShowingForms(endpoint, modern, { authProvider }, () => person());
  });

  it("accept: the form is asked first, and the brief is filed and e-mailed with what the person corrected", async () => {
    const brief = freshBrief({ message: "A new site for our clinics." });
    const corrected = { ...brief, work_email: `corrected-${brief.work_email}` };
    person = () => ({ action: "accept", content: corrected });
    const asked = forms.asked.length;
    const result = (await forms.client.callTool({ name: "submit_project_brief", arguments: brief })) as CallToolResult;
    expect(forms.asked.length).toBe(asked + 1);
    expect(forms.asked.at(-1)!.message).toContain("A person at the studio will read it and e-mail you");
    expect(result.isError, text(result)).toBeFalsy();
    const receipt = result.structuredContent as { lead_id: string };
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length), { timeout: 10_000 }).toBe(1);
    expect((await sentFor(receipt.lead_id))[0]!.body).toMatchObject({ ReplyTo: corrected.work_email });
    expect((await store.get<Lead>(`lead:${receipt.lead_id}`))?.brief).toMatchObject({
      work_email: corrected.work_email,
      full_name: brief.full_name,
    });
  });

  it("decline: nothing is filed or e-mailed, and the result says so", async () => {
    person = () => ({ action: "decline" });
    const before = { leads: await store.zcard("leads"), attempts: (await messages()).attempts };
    const result = (await forms.client.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("NOT filed");
    expect(await store.zcard("leads")).toBe(before.leads);
    expect((await messages()).attempts).toBe(before.attempts);
  });
});

describe("transport errors are JSON-RPC errors, never a 5xx", () => {
  it.each(["GET", "DELETE", "PUT"])("answers %s with 405 and Allow: POST", async (method) => {
    const res = await fetch(endpoint, { method, headers: { Accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("ratelimit-policy")).toBe('"mcp";q=120;w=60');
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { data: { code: "method_not_allowed" } } });
  });

  it("answers malformed JSON, non-JSON-RPC bodies, unknown methods and unknown tools with JSON-RPC errors", async () => {
    const broken = await post('{"jsonrpc": "2.0", ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });

    const notRpc = await post({ hello: "world" });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });

    const unknown = await post({ jsonrpc: "2.0", id: 3, method: "no/such/method" });
    expect(unknown.status).toBeLessThan(500);
    expect(await unknown.json()).toMatchObject({ id: 3, error: { code: -32601 } });

    const tool = await post(call("no_such_tool", {}, 4));
    expect(await tool.json()).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  it("refuses a body over 64 KB with 413 and a JSON-RPC error", async () => {
    const res = await post(call("get_company", { padding: "x".repeat(70_000) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { data: { code: "payload_too_large" } } });
  });

  it("accepts a notification with 202 and refuses an unsupported MCP-Protocol-Version with 400", async () => {
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.status).toBe(202);
    const version = await post({ jsonrpc: "2.0", id: 5, method: "ping" }, { "MCP-Protocol-Version": "1999-01-01" });
    expect(version.status).toBe(400);
    expect(await version.json()).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
  });

  it("refuses a foreign Origin with 403, and serves requests that carry no Origin", async () => {
    const foreign = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { data: { code: "forbidden_origin" } } });
    const own = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { Origin: new URL(base).origin });
    expect(own.status).toBe(200);
  });
});

describe("2026-07-28 on the raw wire, through the emulator", () => {
  const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const modernPost = (method: string, id: number, version = "2026-07-28") =>
    post(
      { jsonrpc: "2.0", id, method, params: { _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": version } } },
      { "MCP-Protocol-Version": version, "Mcp-Method": method },
    );

  it("answers a removed method with 404 and -32601, arriving unchanged and counted once", async () => {
    const res = await modernPost("ping", 21);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 21, error: { code: -32601 } });
    expect(res.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    expect(await countedFor(store, "mcp", localClient)).toBe(1);
  });

  it("refuses an unsupported revision with 400 and -32022, naming 2026-07-28", async () => {
    const res = await modernPost("tools/list", 22, "2027-01-01");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 22, error: { code: -32022, data: { supported: ["2026-07-28"] } } });
  });

  it("answers server/discover with the revision it serves", async () => {
    const res = await modernPost("server/discover", 23);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 23, result: { supportedVersions: ["2026-07-28"], resultType: "complete" } });
  });
});
