import { ClientCredentialsProvider, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { describe, expect, it } from "vitest";
import { serverCard } from "../../src/mcp/card.ts";
import { maxBatchMessages } from "../../src/mcp/constants.ts";
import { mcpHandlerFromEnv } from "../../src/mcp/from-env.ts";
import { modernProtocolVersions } from "../../src/mcp/versions.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { generateSigningKey } from "../../src/tokens/keys.ts";
import { freshBrief } from "../support/briefs.ts";
import { json, mcpCall, mcpHeaders } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";
import { connectMcp, connectShowingForms, eras, expectReadsEverything, text, type ClientEra } from "../support/mcp-client.ts";

/**
 * /mcp in-process, built as functions/mcp.ts builds it, in both protocol eras: the v2 SDK's client pinned to 2026-07-28
 * and in its legacy mode reads everything and files briefs through the OAuth door, and every refusal of the HTTP layer
 * holds in both eras; so does each branch of the person's confirmation (2026-07-28). Here each client has an address of
 * its own and a quota window starts when the test does; tests/runtime/mcp.test.ts files one brief per era through the
 * local runtime.
 */
const { d, clock } = fileDeployment("local", { clock: true });

const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** One JSON-RPC request as a client of the era sends it: 2026-07-28 with its `_meta` envelope and standard headers. */
function rpc(era: ClientEra["era"], method: string, params: Record<string, unknown> = {}, id: number | string = 1, headers = {}) {
  if (era === "legacy") return mcpCall(method, params, id, headers);
  const name = method === "resources/read" ? params.uri : method === "tools/call" || method === "prompts/get" ? params.name : undefined;
  return json(
    { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...envelope, ...(params._meta as object | undefined) } } },
    {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" ? { "mcp-name": name } : {}),
      ...headers,
    },
  );
}

const rest = async (url: string) => (await d.api(new URL(url).pathname)).json();
const leadCount = async () => (await d.leads.list(10_000)).length;

/** A machine client registered at the OAuth server, as the SDK's client-credentials provider that gets its tokens. */
async function machine(name: string) {
  const registered = (await (
    await d.oauth(
      "/oauth/register",
      json({ client_name: `mcp ${name} machine`, grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" }),
    )
  ).json()) as { client_id: string; client_secret: string };
  return new ClientCredentialsProvider({
    clientId: registered.client_id,
    clientSecret: registered.client_secret,
    expectedIssuer: d.baseUrl,
    scope: "svc:brief",
  });
}
const briefCall = (brief: Record<string, unknown>) => ({ name: "submit_project_brief", arguments: brief });

describe.each(eras)("the v2 client $mode", (era) => {
  it("connects in its era and reads everything: every tool, resource and prompt, the same JSON as the REST reads", async () => {
    const client = await connectMcp(`${d.baseUrl}/mcp`, era, { fetch: d.fetchFrom() });
    expect(client.getProtocolEra()).toBe(era.era);
    await expectReadsEverything(client, d.baseUrl, rest);
    await client.close();
  });

  it("files a dry run and a real brief with the SDK's client-credentials provider, e-mailed after the answer (no forms: no confirmation asked)", async () => {
    // Reads go without a token; the first brief meets the 401 and the SDK fetches a token, then retries.
    const client = await connectMcp(`${d.baseUrl}/mcp`, era, { fetch: d.fetchFrom(), authProvider: await machine(era.era) });
    await d.settle();
    const before = { leads: (await d.leads.list(1000)).length, attempts: d.postmark.attempts };

    const dry = (await client.callTool(briefCall(freshBrief({ dry_run: true })))) as CallToolResult;
    expect(dry.isError).toBeFalsy();
    expect(dry.structuredContent).toMatchObject({ dry_run: true, valid: true });
    expect(text(dry)).toContain("Nothing was filed and nobody was e-mailed");
    await d.settle();
    expect((await d.leads.list(1000)).length).toBe(before.leads);
    expect(d.postmark.attempts).toBe(before.attempts);

    const brief = freshBrief({ site_size: "growth-site" });
    const filed = (await client.callTool(briefCall(brief))) as CallToolResult;
    expect(filed.isError).toBeFalsy();
    const receipt = filed.structuredContent as { lead_id: string; status: string };
    expect(receipt).toMatchObject({ status: "received", lead_id: expect.stringMatching(/^lead_/) });
    await d.settle();
    expect(d.postmark.sent.filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === receipt.lead_id)).toHaveLength(1);
    expect((await d.leads.get(receipt.lead_id))?.channel).toBe("mcp");
    await client.close();
  });
});

describe.each(eras)("the HTTP layer, for a client $mode", ({ era }) => {
  const metadataUrl = () => `${d.baseUrl}/.well-known/oauth-protected-resource/mcp`;

  it("files nothing without a token: 401 with resource_metadata and scope, the request's id and the quota reported", async () => {
    const res = await d.mcp(rpc(era, "tools/call", briefCall(freshBrief()), "b1"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer scope="svc:brief", resource_metadata="${metadataUrl()}"`);
    expect(res.headers.get("ratelimit-policy")).toBe('"mcp";q=120;w=60');
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: "b1", error: { code: -32091, data: { code: "invalid_token" } } });
  });

  it("steps a token without svc:brief up with 403 insufficient_scope, and refuses a broken token with 401 even on a read", async () => {
    const readOnly = await d.token("svc:read");
    const res = await d.mcp(rpc(era, "tools/call", briefCall(freshBrief()), "s1", { authorization: `Bearer ${readOnly}` }));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain(`error="insufficient_scope"`);
    expect(res.headers.get("www-authenticate")).toContain(`scope="svc:brief", resource_metadata="${metadataUrl()}"`);
    expect(await res.json()).toMatchObject({ id: "s1", error: { code: -32092, data: { code: "insufficient_scope" } } });

    const broken = await d.mcp(rpc(era, "tools/list", {}, 7, { authorization: `Bearer ${readOnly.slice(0, -4)}AAAA` }));
    expect(broken.status).toBe(401);
    expect(await broken.json()).toMatchObject({ id: 7, error: { code: -32091 } });

    const read = await d.mcp(rpc(era, "tools/list", {}, 8, { authorization: `Bearer ${readOnly}` }));
    expect(read.status).toBe(200);
    expect(((await read.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(10);
  });

  it("refuses a page of another site by its Origin or by a rebound Host name, with 403", async () => {
    const foreign = await d.mcp(rpc(era, "tools/list", {}, 2, { origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ id: null, error: { code: -32096, data: { code: "forbidden_origin" } } });
    // A name of the attacker's resolving to this server: its Host header is not the site's.
    const rebound = await d.serve(new Request(`${d.baseUrl}/mcp`, rpc(era, "tools/list", {}, 3, { host: "evil.example" })));
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ error: { code: -32096, data: { code: "forbidden_origin" } } });
    const own = await d.mcp(rpc(era, "tools/list", {}, 4, { origin: d.baseUrl }));
    expect(own.status).toBe(200);
  });

  it("refuses a body over 64 KB with 413, and a body that is not JSON-RPC with 400 and its id", async () => {
    const large = await d.mcp(rpc(era, "tools/call", { name: "get_company", arguments: { padding: "x".repeat(70_000) } }));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: { code: -32094, data: { code: "payload_too_large" } } });
    const notRpc = await d.mcp(json({ jsonrpc: "1.0", id: 9, method: "tools/list" }, { accept: "application/json" }));
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it("answers an unknown tool with -32602, and a read tool's arguments it does not take with an isError result", async () => {
    const unknown = await d.mcp(rpc(era, "tools/call", { name: "no_such_tool", arguments: {} }, 4));
    expect(await unknown.json()).toMatchObject({ id: 4, error: { code: -32602 } });
    const extra = await d.mcp(rpc(era, "tools/call", { name: "get_company", arguments: { colour: "blue" } }, 5));
    expect(await extra.json()).toMatchObject({ id: 5, result: { isError: true } });
  });
});

describe("the 2025 era's wire", () => {
  const ping = (id: number, headers: Record<string, string> = {}) => mcpCall("ping", {}, id, headers);

  it("answers initialize with a session id it keeps nowhere: a request may carry it or not, and DELETE is 405", async () => {
    const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const first = await d.mcp(mcpCall("initialize", init));
    const session = first.headers.get("mcp-session-id");
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await d.mcp(mcpCall("initialize", init))).headers.get("mcp-session-id")).not.toBe(session);
    const carried: Record<string, string>[] = [{ "mcp-session-id": session! }, { "mcp-session-id": crypto.randomUUID() }, {}];
    for (const headers of carried) {
      const listed = await d.mcp(mcpCall("tools/list", {}, 2, headers));
      expect(listed.status).toBe(200);
      expect(listed.headers.get("mcp-session-id")).toBeNull();
    }
    const ended = await d.mcp({ method: "DELETE", headers: { "mcp-session-id": session! } });
    expect(ended.status).toBe(405);
    expect(ended.headers.get("allow")).toBe("POST");
  });

  it("answers JSON when the client accepts only JSON, and an event stream when it prefers one", async () => {
    const only = await d.mcp(ping(1, { accept: "application/json" }));
    expect(only.status).toBe(200);
    expect(only.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await only.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });

    const stream = await d.mcp(ping(2, { accept: "text/event-stream" }));
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect(await stream.text()).toMatch(/^event: message\ndata: \{"result":\{\},"jsonrpc":"2.0","id":2\}/m);

    // A comma inside a quoted parameter does not split a range: the stream is still preferred.
    const quoted = await d.mcp(ping(3, { accept: 'text/event-stream, application/json;profile="a,b";q=0.5' }));
    expect(quoted.headers.get("content-type")).toBe("text/event-stream");
    await quoted.body?.cancel();
    const wildcard = await d.mcp(ping(4, { accept: "text/*, application/json;q=0.5" }));
    expect(wildcard.headers.get("content-type")).toMatch(/^application\/json/);
    await wildcard.body?.cancel();
  });

  it.each(["GET", "DELETE", "PUT"])("answers %s with 405, Allow: POST and a JSON-RPC error, the quota reported", async (method) => {
    const res = await d.mcp({ method, headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("ratelimit-policy")).toBe('"mcp";q=120;w=60');
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { data: { code: "method_not_allowed" } } });
  });

  it("answers a path under /mcp that is not the endpoint with 404 and -32089, never -32603 (an internal error)", async () => {
    const res = await d.mcp(mcpCall("tools/list"), d.nextIp(), "/mcp/tools");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32089, data: { code: "not_found" } } });
  });

  it("answers malformed JSON with -32700 and an unknown method with -32601, never a 5xx", async () => {
    const broken = await d.mcp(json('{"jsonrpc": "2.0", ', mcpHeaders));
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
    const unknown = await d.mcp(mcpCall("no/such/method", {}, 3));
    expect(unknown.status).toBeLessThan(500);
    expect(await unknown.json()).toMatchObject({ id: 3, error: { code: -32601 } });
  });

  it("accepts a notification with 202 and refuses an unsupported MCP-Protocol-Version with 400", async () => {
    const note = await d.mcp(json({ jsonrpc: "2.0", method: "notifications/initialized" }, mcpHeaders));
    expect(note.status).toBe(202);
    const version = await d.mcp(ping(5, { "mcp-protocol-version": "1999-01-01" }));
    expect(version.status).toBe(400);
    expect(await version.json()).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
  });
});

describe.each(eras)("a brief filed twice by a client $mode", (era) => {
  it("replays the retry with the same idempotency_key instead of filing twice, and names every offending field", async () => {
    const client = await connectMcp(`${d.baseUrl}/mcp`, era, {
      fetch: d.fetchFrom(),
      authProvider: await machine(`${era.era} retry`),
    });
    const brief = { ...freshBrief(), idempotency_key: crypto.randomUUID() };
    const first = (await client.callTool(briefCall(brief))) as CallToolResult;
    const again = (await client.callTool(briefCall(brief))) as CallToolResult;
    const leadId = (first.structuredContent as { lead_id: string }).lead_id;
    expect(leadId).toMatch(/^lead_/);
    expect((again.structuredContent as { lead_id: string }).lead_id).toBe(leadId);
    await d.settle();
    expect(d.postmark.sent.filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === leadId)).toHaveLength(1);

    const invalid = (await client.callTool(briefCall({ company_name: "", work_email: "nope", colour: "blue" }))) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain("NOT filed");
    for (const line of ["/full_name (required)", "/company_name (too_short)", "/work_email (invalid_format)", "/colour (unknown_field)"])
      expect(text(invalid)).toContain(line);
    await client.close();
  });
});

describe("2026-07-28 as the revision says", () => {
  const read = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, any> });

  it("answers server/discover with the revisions, capabilities, instructions and cache hints it serves", async () => {
    const { status, body } = await read(await d.mcp(rpc("modern", "server/discover")));
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      supportedVersions: [...modernProtocolVersions],
      instructions: expect.stringContaining("submit_project_brief"),
      resultType: "complete",
      ttlMs: 3_600_000,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "kestrel-studio-facts", version: "1.0.0" } },
    });
    // Every list is fixed for the life of a deploy, the skills' template's too; the Skills extension with its directory reads.
    expect(body.result.capabilities).toEqual({
      logging: {},
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } },
    });
  });

  it("takes get_case_study's id in its Mcp-Param-Case-Study header too, as it is or in Base64, and refuses a header that disagrees (-32020)", async () => {
    const [id] = Object.keys(d.resources.case_study_details);
    const call = (headers: Record<string, string>, args: Record<string, unknown> = { id }) =>
      d.mcp(rpc("modern", "tools/call", { name: "get_case_study", arguments: args }, 41, headers)).then(read);
    const tools = (await read(await d.mcp(rpc("modern", "tools/list")))).body.result.tools as { name: string; inputSchema: any }[];
    expect(tools.find((t) => t.name === "get_case_study")!.inputSchema.properties.id["x-mcp-header"]).toBe("Case-Study");
    const b64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;
    for (const header of [id!, b64(id!)]) {
      const { status, body } = await call({ "mcp-param-case-study": header });
      expect(status, header).toBe(200);
      expect(body.result.structuredContent).toMatchObject({ id });
    }
    const refused = (detail: RegExp) => ({
      status: 400,
      body: { id: 41, error: { code: -32020, message: expect.stringMatching(detail) } },
    });
    expect(await call({})).toMatchObject(refused(/missing/));
    expect(await call({ "mcp-param-case-study": "another-study" })).toMatchObject(refused(/does not match/));
    const unpadded = b64(id!).replace(/=+\?=$/, "?=");
    for (const bad of ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?/w==?=", ...(unpadded === b64(id!) ? [] : [unpadded])])
      expect(await call({ "mcp-param-case-study": bad }), bad).toMatchObject(refused(/Base64/));
    // A header for an argument the body does not send says something else than the body.
    expect(await call({ "mcp-param-case-study": id! }, {})).toMatchObject(refused(/does not match/));
    // The 2025 era has no such headers: its calls are not checked.
    expect((await d.mcp(mcpCall("tools/call", { name: "get_case_study", arguments: { id } }))).status).toBe(200);
  });

  it("puts resultType and serverInfo on every result, and cache hints on the lists (an hour) and resources (a minute)", async () => {
    const serverInfo = { "io.modelcontextprotocol/serverInfo": { name: "kestrel-studio-facts" } };
    for (const method of ["tools/list", "resources/list", "resources/templates/list", "prompts/list"]) {
      const { body } = await read(await d.mcp(rpc("modern", method)));
      expect(body.result, method).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public", _meta: serverInfo });
    }
    const resource = await read(await d.mcp(rpc("modern", "resources/read", { uri: `${d.baseUrl}/api/v1/offers` })));
    expect(resource.body.result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "public", _meta: serverInfo });
    const call = await read(await d.mcp(rpc("modern", "tools/call", { name: "get_offers", arguments: {} })));
    expect(call.body.result).toMatchObject({ resultType: "complete", _meta: serverInfo });
    expect(call.body.result).not.toHaveProperty("ttlMs");
    // The 2025 era's answers stay as they were.
    const legacy = await read(await d.mcp(rpc("legacy", "tools/list")));
    expect(legacy.body.result).not.toHaveProperty("resultType");
    expect(legacy.body.result).not.toHaveProperty("ttlMs");
  });

  it.each(["ping", "logging/setLevel", "resources/subscribe", "initialize"])(
    "answers the removed %s with 404 and -32601",
    async (method) => {
      const params =
        method === "logging/setLevel" ? { level: "info" } : method === "resources/subscribe" ? { uri: `${d.baseUrl}/api/v1` } : {};
      const { status, body } = await read(await d.mcp(rpc("modern", method, params, 11)));
      expect(status).toBe(404);
      expect(body).toMatchObject({ id: 11, error: { code: -32601 } });
    },
  );

  it("refuses an unsupported revision with 400 and -32022, naming the revisions it serves", async () => {
    const future = { ...envelope, "io.modelcontextprotocol/protocolVersion": "2027-01-01" };
    const res = await d.mcp(
      json(
        { jsonrpc: "2.0", id: 12, method: "tools/list", params: { _meta: future } },
        { accept: "application/json", "mcp-protocol-version": "2027-01-01", "mcp-method": "tools/list" },
      ),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      id: 12,
      error: { code: -32022, data: { supported: [...modernProtocolVersions], requested: "2027-01-01" } },
    });
  });

  it("checks Mcp-Method and Mcp-Name against the body: a mismatch or a missing header is a 400", async () => {
    const wrongMethod = await read(await d.mcp(rpc("modern", "tools/list", {}, 13, { "mcp-method": "prompts/list" })));
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.body).toMatchObject({ id: 13, error: { code: -32020 } });
    const wrongName = await read(
      await d.mcp(rpc("modern", "tools/call", { name: "get_offers", arguments: {} }, 14, { "mcp-name": "get_company" })),
    );
    expect(wrongName.status).toBe(400);
    expect(wrongName.body).toMatchObject({ id: 14, error: { code: -32020 } });
    const init = rpc("modern", "tools/call", { name: "get_offers", arguments: {} }, 15);
    const headers = new Headers(init.headers);
    headers.delete("mcp-name");
    const missing = await read(await d.mcp({ ...init, headers }));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ id: 15, error: { code: -32020 } });
  });

  it("answers a request without the envelope but naming 2026-07-28 in its header with 400 and -32602", async () => {
    const { status, body } = await read(
      await d.mcp(mcpCall("tools/list", {}, 16, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" })),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ id: 16, error: { code: -32602 } });
  });

  it("answers hostile params with -32602 in words, never -32603 or an engine's text: a brief nested 20,000 deep, a prompt's object argument", async () => {
    const forms = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const init = rpc("modern", "tools/call", { ...briefCall({ ...freshBrief(), message: "DEEP" }), _meta: forms }, 31, {
      authorization: `Bearer ${await d.token("svc:brief")}`,
    });
    const deep = await d.mcp({ ...init, body: String(init.body).replace('"DEEP"', `${"[".repeat(20_000)}1${"]".repeat(20_000)}`) });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ id: 31, error: { code: -32602, message: expect.stringMatching(/more than 32 levels/) } });
    const prompt = await d.mcp(mcpCall("prompts/get", { name: "prepare_project_brief", arguments: { a: { b: 1 } } }, 32));
    expect(await prompt.json()).toMatchObject({
      id: 32,
      error: { code: -32602, message: "Invalid params: params.arguments.a: expected string, received object." },
    });
  });
});

describe("the person confirms their own brief", () => {
  const modern = eras.find((e) => e.era === "modern")!;
  const legacy = eras.find((e) => e.era === "legacy")!;
  /** What the person does with the next form; each test says. */
  let person: () => ElicitResult = () => ({ action: "cancel" });
  const showingForms = async (era: ClientEra) =>
    connectShowingForms(`${d.baseUrl}/mcp`, era, { fetch: d.fetchFrom(), authProvider: await machine(`forms ${era.era}`) }, () => person());

  it("asks in the client's own form, filled in from the arguments, and files what the person corrected and accepted", async () => {
    const { client, asked } = await showingForms(modern);
    const brief = freshBrief({ site_size: "growth-site", message: "Clinics." });
    person = () => ({ action: "accept", content: { ...brief, full_name: "Ada King", message: "ignored: not a field of the form" } });
    const before = await leadCount();
    const result = (await client.callTool(briefCall(brief))) as CallToolResult;
    expect(asked).toHaveLength(1);
    const form = asked[0] as { mode?: string; message: string; requestedSchema: { properties: Record<string, any>; required: string[] } };
    expect(form.mode ?? "form").toBe("form");
    expect(form.message).toContain("A person at the studio will read it and e-mail you");
    expect(form.requestedSchema.required).toEqual(["full_name", "company_name", "work_email"]);
    expect(form.requestedSchema.properties).toEqual({
      full_name: expect.objectContaining({ type: "string", title: "Your name", default: brief.full_name, maxLength: 120 }),
      company_name: expect.objectContaining({ type: "string", title: "Company", default: brief.company_name }),
      work_email: expect.objectContaining({ type: "string", format: "email", default: brief.work_email }),
    });

    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toContain("The person confirmed");
    const receipt = result.structuredContent as { lead_id: string; brief: { full_name: string; message: string } };
    expect(receipt.brief).toMatchObject({ full_name: "Ada King", message: "Clinics." });
    await d.settle();
    expect(await leadCount()).toBe(before + 1);
    expect((await d.leads.get(receipt.lead_id))?.brief).toMatchObject({ full_name: "Ada King", company_name: brief.company_name });
    await client.close();
  });

  it.each(["decline", "cancel"] as const)("files nothing when the person answers %s, and says so", async (action) => {
    const { client, asked } = await showingForms(modern);
    person = () => ({ action });
    await d.settle();
    const before = { leads: await leadCount(), attempts: d.postmark.attempts };
    const result = (await client.callTool(briefCall(freshBrief()))) as CallToolResult;
    expect(asked).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("the brief was NOT filed and nobody will e-mail them");
    await d.settle();
    expect(await leadCount()).toBe(before.leads);
    expect(d.postmark.attempts).toBe(before.attempts);
    await client.close();
  });

  it("never asks for a dry run", async () => {
    const { client, asked } = await showingForms(modern);
    const before = await leadCount();
    const dry = (await client.callTool(briefCall(freshBrief({ dry_run: true })))) as CallToolResult;
    expect(dry.structuredContent).toMatchObject({ dry_run: true, valid: true });
    expect(asked).toHaveLength(0);
    expect(await leadCount()).toBe(before);
    await client.close();
  });

  it("asks the person again when an accepted value is not one the brief takes, naming the problem", async () => {
    const { client, asked } = await showingForms(modern);
    const brief = freshBrief();
    person = () => (asked.length === 1 ? { action: "accept", content: { ...brief, work_email: "ada at engines" } } : { action: "decline" });
    const result = (await client.callTool(briefCall(brief))) as CallToolResult;
    expect(asked).toHaveLength(2);
    expect(asked[1]!.message).toContain("work_email must be an e-mail address");
    expect(
      ((asked[1] as { requestedSchema: unknown }).requestedSchema as { properties: Record<string, { default?: string }> }).properties
        .work_email!.default,
    ).toBe("ada at engines");
    expect(result.isError).toBe(true);
    await client.close();
  });

  it("does not ask a 2025-era client, which a stateless endpoint cannot reach with a request of its own: filed as before", async () => {
    const { client, asked } = await showingForms(legacy);
    expect(client.getProtocolEra()).toBe("legacy");
    person = () => ({ action: "decline" });
    const result = (await client.callTool(briefCall(freshBrief()))) as CallToolResult;
    expect(asked).toHaveLength(0);
    expect(result.structuredContent).toMatchObject({ status: "received" });
    await client.close();
  });
});

describe("the confirmation's state on the wire (2026-07-28)", () => {
  const forms = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  type Answer = { status: number; body: { result?: Record<string, any>; error?: { code: number; message: string; data?: unknown } } };
  const send = async (params: Record<string, unknown>, token: string): Promise<Answer> => {
    const res = await d.mcp(rpc("modern", "tools/call", { ...params, _meta: forms }, 31, { authorization: `Bearer ${token}` }));
    return { status: res.status, body: (await res.json()) as Answer["body"] };
  };
  /** The first round: the form and the state, for a client of its own. */
  async function asked(brief = freshBrief()) {
    const clientId = `client-${crypto.randomUUID()}`;
    const token = await d.token("svc:brief", clientId);
    const first = await send(briefCall(brief), token);
    return { brief, token, clientId, result: first.body.result! };
  }
  const accept = (content: object) => ({ contact: { action: "accept", content } });
  const refused = { error: { code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } } };

  it("answers the first call with an input-required result: the form, and a state signed for the call", async () => {
    const { result, brief } = await asked();
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: { contact: { method: "elicitation/create", params: { requestedSchema: { type: "object" } } } },
      requestState: expect.stringMatching(/^v1\.[\w-]+\.[\w-]+$/),
    });
    expect(result.inputRequests.contact.params.requestedSchema.properties.full_name.default).toBe(brief.full_name);
    expect(result).not.toHaveProperty("content");
  });

  it("files the accepted brief, whatever the order of its arguments on the retry", async () => {
    const { result, brief, token } = await asked();
    const reordered = Object.fromEntries(Object.entries(brief).reverse());
    const before = await leadCount();
    const filed = await send({ ...briefCall(reordered), inputResponses: accept(brief), requestState: result.requestState }, token);
    expect(filed.body.result).toMatchObject({ resultType: "complete", structuredContent: { status: "received" } });
    expect(await leadCount()).toBe(before + 1);
  });

  it("files one answered form once: the same answer again, or another, is answered with its receipt and files nothing", async () => {
    const { result, brief, token } = await asked();
    const before = await leadCount();
    const answer = (content: object) =>
      send({ ...briefCall(brief), inputResponses: accept(content), requestState: result.requestState }, token);
    const filed = (await answer(brief)).body.result!;
    const again = (await answer(brief)).body.result!;
    expect(again.structuredContent.lead_id).toBe(filed.structuredContent.lead_id);
    expect(again.content[0].text).toContain("This form was already answered and its brief filed");
    const other = (await answer({ ...brief, full_name: "Mia Mcp2" })).body.result!;
    expect(other.structuredContent.lead_id).toBe(filed.structuredContent.lead_id);
    expect(other.content[0].text).toContain("a later answer to it changes nothing");
    expect(await leadCount()).toBe(before + 1);
  });

  it.each(["decline", "cancel"])(
    "answers a later %s of an accepted form with the brief it filed, never that it was not",
    async (action) => {
      const { result, brief, token } = await asked();
      const answer = async (contact: object) =>
        (await send({ ...briefCall(brief), inputResponses: { contact }, requestState: result.requestState }, token)).body.result!;
      const lead = (await answer({ action: "accept", content: brief })).structuredContent.lead_id;
      expect(lead).toMatch(/^lead_/);
      const later = await answer({ action });
      expect(later.isError).toBeFalsy();
      expect(later.content[0].text).not.toMatch(/NOT filed/);
      expect(later.content[0].text).toContain(`This form was already answered and its brief filed: lead ${lead}`);
      expect(later.structuredContent.lead_id).toBe(lead);
    },
  );

  it("files nothing for a declined form whatever is answered to it after, and answers an unusable answer after a filing with its receipt", async () => {
    const { result, brief, token } = await asked();
    const before = await leadCount();
    const answer = async (state: string, contact: object) =>
      (await send({ ...briefCall(brief), inputResponses: { contact }, requestState: state }, token)).body.result!;
    expect((await answer(result.requestState, { action: "decline" })).content[0].text).toContain("NOT filed");
    const after = await answer(result.requestState, { action: "accept", content: brief });
    expect(after.isError).toBe(true);
    expect(after.content[0].text).toContain("declined this form before");
    expect(await leadCount()).toBe(before);

    const second = (await send(briefCall(brief), token)).body.result!.requestState;
    const filed = (await answer(second, { action: "accept", content: brief })).structuredContent.lead_id;
    expect(filed).toMatch(/^lead_/);
    // An unusable answer after the filing is answered with the filing, never the form again.
    const unusable = await answer(second, { action: "accept", content: { ...brief, work_email: "nope" } });
    expect(unusable.requestState).toBeUndefined();
    expect(unusable.structuredContent.lead_id).toBe(filed);
    expect(unusable.content[0].text).toContain(`lead ${filed}`);
    expect(await leadCount()).toBe(before + 1);
  });

  it("answers a form declined before its key filed through another form with the receipt, and one racing an accept alike", async () => {
    const brief = freshBrief();
    const keyed = { ...brief, idempotency_key: crypto.randomUUID() };
    const { result, token } = await asked(keyed);
    const answer = async (state: string, contact: object) =>
      (await send({ ...briefCall(keyed), inputResponses: { contact }, requestState: state }, token)).body.result!;
    expect((await answer(result.requestState, { action: "decline" })).content[0].text).toContain("NOT filed");
    // The agent asks again with the same key; the person accepts that form: the key files.
    const second = (await send(briefCall(keyed), token)).body.result!.requestState;
    const filed = (await answer(second, { action: "accept", content: brief })).structuredContent.lead_id;
    expect(filed).toMatch(/^lead_/);
    expect((await answer(result.requestState, { action: "accept", content: brief })).structuredContent.lead_id).toBe(filed);

    // An accept and a cancel of one form at once: both answers tell the same story, with the lead or without one.
    const racing = await asked();
    const both = await Promise.all(
      [{ action: "accept", content: racing.brief }, { action: "cancel" }].map(async (contact) =>
        send({ ...briefCall(racing.brief), inputResponses: { contact }, requestState: racing.result.requestState }, racing.token),
      ),
    );
    const leads = both.map((b) => b.body.result?.structuredContent?.lead_id);
    expect(leads[0] === undefined ? leads : [leads[1]]).toEqual(leads[0] === undefined ? [undefined, undefined] : [leads[0]]);
  });

  it("answers the call made again with its own idempotency_key as filed under it, the same lead, and asks nobody", async () => {
    const brief = { ...freshBrief(), idempotency_key: crypto.randomUUID() };
    const { result, token } = await asked(brief);
    const before = await leadCount();
    const { idempotency_key: _, ...fields } = brief;
    const filed = (await send({ ...briefCall(brief), inputResponses: accept(fields), requestState: result.requestState }, token)).body
      .result!;
    const { lead_id, received_at, next_steps } = filed.structuredContent;
    const confirmed = "The person confirmed their name, company and work e-mail in your client's form.";
    expect(filed.content[0].text.split("\n")[0]).toBe(`Filed: lead ${lead_id}, received ${received_at}. ${confirmed} ${next_steps}`);
    const again = (await send(briefCall(brief), token)).body.result!;
    expect(again.resultType).toBe("complete");
    expect(again.structuredContent.lead_id).toBe(lead_id);
    expect(again.content[0].text.split("\n")[0]).toBe(
      `Already filed with this idempotency_key: lead ${lead_id}. ${confirmed} ${next_steps}`,
    );
    expect(await leadCount()).toBe(before + 1);
  });

  it("files one brief for a confirmation asked again in several rounds, whichever round's state an answer comes with", async () => {
    const { result, brief, token } = await asked();
    const before = await leadCount();
    const answer = (state: string, content: object) =>
      send({ ...briefCall(brief), inputResponses: accept(content), requestState: state }, token);
    // Two unusable answers to the first form: each asks again, with a state of its own.
    const again = [
      (await answer(result.requestState, { ...brief, work_email: "bad0" })).body.result!,
      (await answer(result.requestState, { ...brief, work_email: "bad1" })).body.result!,
    ];
    expect(again.map((r) => r.resultType)).toEqual(["input_required", "input_required"]);
    const filed = (await answer(again[0]!.requestState, brief)).body.result!;
    expect(filed.structuredContent.lead_id).toMatch(/^lead_/);
    const other = (await answer(again[1]!.requestState, { ...brief, work_email: `other-${brief.work_email}` })).body.result!;
    expect(other.structuredContent.lead_id).toBe(filed.structuredContent.lead_id);
    expect(other.content[0].text).toContain("This form was already answered");
    const first = (await answer(result.requestState, brief)).body.result!;
    expect(first.structuredContent.lead_id).toBe(filed.structuredContent.lead_id);
    expect(await leadCount()).toBe(before + 1);
  });

  it("refuses a tampered state, a state replayed with other arguments, by another client or another grant, and an expired one, with -32602", async () => {
    const { result, brief, token, clientId } = await asked();
    const before = await leadCount();
    const retry = (args: object, state: string) => ({
      ...briefCall(args as Record<string, unknown>),
      inputResponses: accept(brief),
      requestState: state,
    });
    const [head, body, mac] = (result.requestState as string).split(".");
    // The payload rewritten (another call's digest) under the old signature, and the signature altered.
    const forged = `${head}.${btoa(JSON.stringify({ p: { call: "x" }, exp: 4e9 })).replace(/=+$/, "")}.${mac}`;
    for (const state of [`${result.requestState}-TAMPERED`, forged, `${head}.${body}.${mac!.slice(0, -2)}AA`]) {
      expect((await send(retry(brief, state), token)).body).toMatchObject(refused);
    }
    // The same state with another brief (the same client): the state names the arguments it was minted for.
    expect((await send(retry({ ...brief, full_name: "Someone Else" }, result.requestState), token)).body).toMatchObject(refused);
    expect((await send(retry({ ...brief, dry_run: false }, result.requestState), token)).body).toMatchObject(refused);
    // The same state and brief from another client, and from another person's grant of this very client.
    expect((await send(retry(brief, result.requestState), await d.token("svc:brief"))).body).toMatchObject(refused);
    const samePublicClient = await d.token("svc:brief", clientId, consentGrantId());
    expect((await send(retry(brief, result.requestState), samePublicClient)).body).toMatchObject(refused);
    // The same state after its ten minutes.
    clock.advance(10 * 60 * 1000 + 2000);
    expect((await send(retry(brief, result.requestState), token)).body).toMatchObject(refused);
    expect(await leadCount()).toBe(before);
  });

  it("takes the state at another instance of the function, and across a key rotation's switch", async () => {
    const { result, brief, token } = await asked();
    // The signing keys after `npm run keys -- rotate switch`: a new key signs, the old one (that signed the state) stays.
    const { keys } = JSON.parse(d.env("OAUTH_SIGNING_KEYS")!) as { keys: object[] };
    const switched = JSON.stringify({ keys: [await generateSigningKey(), ...keys] });
    const work: Promise<unknown>[] = [];
    for (const signingKeys of [d.env("OAUTH_SIGNING_KEYS")!, switched]) {
      const env = (name: string) => (name === "OAUTH_SIGNING_KEYS" ? signingKeys : d.env(name));
      const instance = mcpHandlerFromEnv(env, d.resources, serverCard(d.resources), d.skills);
      const init = rpc(
        "modern",
        "tools/call",
        { ...briefCall(brief), _meta: forms, inputResponses: accept(brief), requestState: result.requestState },
        33,
        { authorization: `Bearer ${token}` },
      );
      const request = new Request(`${d.baseUrl}/mcp`, init);
      request.headers.set("host", new URL(d.baseUrl).host);
      const res = await instance(request, { ip: d.nextIp(), waitUntil: (w) => void work.push(w) });
      // The second run is the same brief from the same client again: the pipeline answers with the first lead.
      expect(((await res.json()) as Answer["body"]).result).toMatchObject({
        resultType: "complete",
        structuredContent: { lead_id: expect.any(String) },
      });
    }
  });

  it("asks again when a retry carries the state but no usable answer, and refuses answers without a state by asking first", async () => {
    const { result, brief, token } = await asked();
    const before = await leadCount();
    for (const inputResponses of [
      undefined,
      {},
      { contact: 12345 },
      { other: { action: "accept", content: brief } },
      accept({ full_name: "A" }),
    ]) {
      const again = await send({ ...briefCall(brief), inputResponses, requestState: result.requestState }, token);
      expect(again.body.result, JSON.stringify(inputResponses)).toMatchObject({
        resultType: "input_required",
        inputRequests: { contact: {} },
      });
      // A form asked again is a new round, with a state of its own, even within the same second.
      expect(again.body.result?.requestState).not.toBe(result.requestState);
    }
    // An answer the server never asked for (no state) is not a confirmation: the form is asked for first.
    const unasked = await send({ ...briefCall(brief), inputResponses: accept(brief) }, token);
    expect(unasked.body.result).toMatchObject({ resultType: "input_required" });
    expect(await leadCount()).toBe(before);
  });

  it("refuses an invalid brief at once, before any person is asked", async () => {
    const { result } = await asked({ ...freshBrief(), work_email: "nope", colour: "blue" } as ReturnType<typeof freshBrief>);
    expect(result).toMatchObject({ resultType: "complete", isError: true });
    expect(result.content[0].text).toContain("/work_email (invalid_format)");
    expect(result.content[0].text).toContain("/colour (unknown_field)");
  });

  it("files straight away for a client that declares no form elicitation (none, or URL mode only)", async () => {
    for (const capabilities of [{}, { elicitation: { url: {} } }]) {
      const token = await d.token("svc:brief");
      const res = await d.mcp(
        rpc(
          "modern",
          "tools/call",
          { ...briefCall(freshBrief()), _meta: { "io.modelcontextprotocol/clientCapabilities": capabilities } },
          32,
          { authorization: `Bearer ${token}` },
        ),
      );
      expect(((await res.json()) as Answer["body"]).result, JSON.stringify(capabilities)).toMatchObject({
        resultType: "complete",
        structuredContent: { status: "received" },
      });
    }
  });
});

describe("the /mcp quota: 120 requests per 60 seconds per client IP", () => {
  it("counts down on every response and refuses the 121st with 429, Retry-After and a JSON-RPC error", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    // Ten at a time: the count is exact under concurrent requests too.
    const remaining: number[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => d.mcp({ method: i % 2 ? "GET" : "DELETE" }, ip)));
      for (const res of responses) {
        expect(res.status).toBe(405);
        const match = /^"mcp";r=(\d+);t=\d+$/.exec(res.headers.get("ratelimit") ?? "");
        expect(match).not.toBeNull();
        remaining.push(Number(match![1]));
        await res.body?.cancel();
      }
    }
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    // Either era's request is counted and refused alike, with its own id.
    for (const era of ["legacy", "modern"] as const) {
      const refused = await d.mcp(rpc(era, "tools/list", {}, era), ip);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(refused.headers.get("ratelimit-reset")));
      // The request was read while it was counted, so its refusal answers its id.
      expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: era, error: { code: -32090, data: { code: "rate_limited" } } });
    }

    // The next window serves the same client again, in either era.
    clock.toNextWindow(60);
    const next = await d.mcp(rpc("modern", "tools/list"), ip);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    const legacy = await d.mcp(mcpCall("ping"), ip);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get("ratelimit")).toMatch(/^"mcp";r=118;t=\d+$/);
  });
});

describe("what another site's page costs a visitor", () => {
  it("counts neither a preflight nor a cross-site POST at /mcp against the visitor's address", async () => {
    const ip = d.nextIp();
    const preflight = await d.mcp(
      { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } },
      ip,
    );
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    await preflight.body?.cancel();
    const post = await d.mcp({ method: "POST", headers: { origin: "https://evil.example", "content-type": "text/plain" }, body: "{}" }, ip);
    expect(post.status).toBe(403);
    await post.body?.cancel();
    const store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
    expect(await store.keys(`rl:mcp:${ip}:*`)).toEqual([]);
    // The visitor's own request is counted there.
    await (await d.mcp(mcpCall("ping"), ip)).body?.cancel();
    expect(await store.keys(`rl:mcp:${ip}:*`)).toHaveLength(1);
  });
});

/**
 * JSON-RPC batches: MCP 2025-03-26 had them, 2025-06-18 removed them. A batch on any other revision, an empty or
 * oversize one, or one with initialize is refused before the SDK in our words; an allowed batch counts each of its
 * messages against the quota, in one count, and one that does not fit in what is left is refused whole.
 */
describe("JSON-RPC batches: 2025-03-26 only, every message counted", () => {
  const read = (id: number, name = "get_company") => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
  const reads = (n: number, from = 1) => Array.from({ length: n }, (_, i) => read(from + i));
  const batch = (messages: unknown[], revision: string | null = "2025-03-26", headers: Record<string, string> = {}) =>
    json(messages, {
      accept: "application/json, text/event-stream",
      ...(revision === null ? {} : { "mcp-protocol-version": revision }),
      ...headers,
    });
  const remaining = (res: Response, policy = "mcp") =>
    Number(new RegExp(`"${policy}";r=(\\d+)`).exec(res.headers.get("ratelimit") ?? "")?.[1]);
  type Rpc = { id: unknown; result?: Record<string, any>; error?: { code: number; message: string; data?: { code?: string } } };

  it.each(["2025-11-25", "2025-06-18", "2024-11-05", "2026-07-28"])(
    "refuses a batch sent as %s with 400 and -32600 naming the revision, before the SDK, counted once",
    async (revision) => {
      clock.toNextWindow(60);
      const ip = d.nextIp();
      const res = await d.mcp(batch(reads(3), revision), ip);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message: `Invalid request: MCP ${revision} has no JSON-RPC batches (only 2025-03-26 had them): send each message in a POST of its own.`,
          data: { code: "invalid_request" },
        },
      });
      expect(remaining(res)).toBe(119);
    },
  );

  it("refuses a batch of 2026-07-28 messages, and one naming a revision it does not serve, without repeating that back", async () => {
    const modern = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } };
    for (const revision of [null, "2025-03-26"]) {
      const res = await d.mcp(batch([read(2), modern], revision));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringMatching(/_meta envelope of MCP 2026-07-28/) },
      });
    }
    const made = await d.mcp(batch(reads(2), "2099-01-01"));
    expect(made.status).toBe(400);
    const { error } = (await made.json()) as Rpc;
    expect(error).toMatchObject({ code: -32600, data: { code: "invalid_request" } });
    expect(error!.message).not.toContain("2099");
  });

  it("serves a 2025-03-26 batch, and one without MCP-Protocol-Version, counting each message: N reads lower RateLimit by N", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const five = await d.mcp(batch(reads(5)), ip);
    expect(five.status).toBe(200);
    const answers = (await five.json()) as Rpc[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5]);
    expect(answers.every((a) => a.result?.structuredContent?.name)).toBe(true);
    expect(remaining(five)).toBe(115);
    const three = await d.mcp(batch(reads(3, 6), null), ip);
    expect(three.status).toBe(200);
    expect(((await three.json()) as Rpc[]).map((a) => a.id)).toEqual([6, 7, 8]);
    expect(remaining(three)).toBe(112);
    // Notifications count too: the batch is answered 202 and counted for each.
    const notes = await d.mcp(
      batch([
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", method: "notifications/initialized" },
      ]),
      ip,
    );
    expect(notes.status).toBe(202);
    expect(remaining(notes)).toBe(110);
    // 1 and "1" are two ids.
    const twoIds = await d.mcp(batch([read(1), { ...read(2), id: "1" }]), ip);
    expect(((await twoIds.json()) as Rpc[]).map((a) => a.id)).toEqual([1, "1"]);
    expect(remaining(twoIds)).toBe(108);
    // A single message is one, as before.
    expect(remaining(await d.mcp(mcpCall("tools/list"), ip))).toBe(107);
  });

  it("counts each message of a batch with a token against its grant and the address's ceiling for grants, in one command", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const token = await d.token("svc:read");
    // The first count of a grant loads the script into the store (EVALSHA, then EVAL): a request of one does it.
    await d.mcp(mcpCall("tools/list", {}, 1, { authorization: `Bearer ${token}` }), ip);
    const before = d.store.commands.length;
    const res = await d.mcp(batch(reads(4), "2025-03-26", { authorization: `Bearer ${token}` }), ip);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit")).toMatch(/^"mcp";r=115;t=\d+, "grants-per-address";r=2995;t=\d+$/);
    const counts = d.store.commands.slice(before).filter((c) => /^eval/i.test(String(c[0])));
    expect(counts).toHaveLength(1);
  });

  it("serves a batch of the most messages allowed, and refuses an empty batch, a larger one, one with initialize and one that reuses an id in its own words, each counted once", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const most = await d.mcp(batch(reads(maxBatchMessages)), ip);
    expect(most.status).toBe(200);
    expect((await most.json()) as Rpc[]).toHaveLength(maxBatchMessages);
    let left = 120 - maxBatchMessages;
    expect(remaining(most)).toBe(left);
    const init = {
      jsonrpc: "2.0",
      id: 9,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const refusals: [unknown[], RegExp][] = [
      [[], /^Invalid request: The batch is empty: a JSON-RPC batch carries at least one message\.$/],
      [reads(maxBatchMessages + 1), new RegExp(`at most ${maxBatchMessages} messages, and this one carries ${maxBatchMessages + 1}`)],
      [[init, read(10)], /initialize must not be part of a JSON-RPC batch/],
      [[init], /initialize must not be part of a JSON-RPC batch/],
      [
        [read(1), read(2), read(1)],
        /^Invalid request: Message 3 of the batch has the id of message 1: give each request an id of its own\.$/,
      ],
    ];
    for (const [messages, words] of refusals) {
      const res = await d.mcp(batch(messages), ip);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringMatching(words), data: { code: "invalid_request" } },
      });
      expect(remaining(res)).toBe(--left);
    }
  });

  it("refuses a batch that does not fit in what is left of the window whole, with 429; the window is then spent", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    for (let i = 0; i < 5; i++) expect((await d.mcp(batch(reads(maxBatchMessages)), ip)).status).toBe(200);
    const almost = await d.mcp(batch(reads(15)), ip);
    expect(remaining(almost)).toBe(5);
    const refused = await d.mcp(batch(reads(6)), ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32090,
        message: expect.stringMatching(
          /counts as 6 requests, one per message it carries, more than is left of the quota "mcp" \(120 per 60 seconds\), so it is refused whole/,
        ),
        data: { code: "rate_limited" },
      },
    });
    // Counted as any refused request is: what was left is spent until the window resets.
    expect((await d.mcp(mcpCall("tools/list"), ip)).status).toBe(429);
    clock.toNextWindow(60);
    const next = await d.mcp(batch(reads(6)), ip);
    expect(next.status).toBe(200);
    expect(remaining(next)).toBe(114);
  });

  it("asks svc:brief for a batch with a brief call, files each brief in it against briefs-per-grant, and files none of a refused batch", async () => {
    clock.toNextWindow(3600);
    const ip = d.nextIp();
    const brief = (id: number, extra: Record<string, unknown> = {}) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: briefCall({ ...freshBrief(), ...extra }),
    });
    const anonymous = await d.mcp(batch([read(1), brief(2)]), ip);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ id: 2, error: { code: -32091, data: { code: "invalid_token" } } });
    const readOnly = await d.mcp(batch([read(1), brief(2)], "2025-03-26", { authorization: `Bearer ${await d.token("svc:read")}` }), ip);
    expect(readOnly.status).toBe(403);

    const token = await d.token("svc:brief");
    const auth = { authorization: `Bearer ${token}` };
    const before = await leadCount();
    const filed = await d.mcp(batch([brief(1), read(2), brief(3)], "2025-03-26", auth), ip);
    expect(filed.status).toBe(200);
    const answers = (await filed.json()) as Rpc[];
    expect(answers.map((a) => a.result?.structuredContent?.status)).toEqual(["received", undefined, "received"]);
    expect(await leadCount()).toBe(before + 2);
    // Ten an hour per grant, in a batch as one by one: 2 filed, 8 left; a batch of 9 files 8 and refuses the last.
    const nine = await d.mcp(
      batch(
        Array.from({ length: 9 }, (_, i) => brief(10 + i)),
        "2025-03-26",
        auth,
      ),
      ip,
    );
    const results = ((await nine.json()) as Rpc[]).map((a) => a.result!);
    expect(results.filter((r) => r.structuredContent?.status === "received")).toHaveLength(8);
    const over = results.filter((r) => r.isError);
    expect(over).toHaveLength(1);
    expect(over[0]!.content[0].text).toMatch(/^The brief was NOT filed: This grant has filed its 10 briefs for now/);
    // As REST's Retry-After: when the grant's window ends.
    const details = JSON.parse(over[0]!.content[0].text.slice(over[0]!.content[0].text.indexOf("\n\n{"))) as Record<string, unknown>;
    expect(details).toMatchObject({ code: "brief_quota_exceeded", retry_after: expect.any(Number) });
    expect(details.retry_after).toBeGreaterThan(0);
    expect(await leadCount()).toBe(before + 10);

    // A batch the mcp quota refuses files nothing at all.
    clock.toNextWindow(3600);
    const another = { authorization: `Bearer ${await d.token("svc:brief")}` };
    const spender = d.nextIp();
    for (let spent = 0; spent < 120; spent += maxBatchMessages) await d.mcp(batch(reads(maxBatchMessages), "2025-03-26", another), spender);
    const held = await d.mcp(batch([brief(30), read(31)], "2025-03-26", another), spender);
    expect(held.status).toBe(429);
    await d.settle();
    expect(await leadCount()).toBe(before + 10);
  });
});
