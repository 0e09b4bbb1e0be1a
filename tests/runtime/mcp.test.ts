import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { freshBrief } from "../support/briefs.ts";
import { connectMcp, connectShowingForms, eras, text } from "../support/mcp-client.ts";
import { clientCredentialsToken, machineProvider } from "../support/oauth-client.ts";
import { sentForLead, standInMessages } from "../support/postmark-standin.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * /mcp end to end through the local runtime, as a person's client meets it: the v2 SDK's own client in both protocol
 * eras (pinned to 2026-07-28, and in its legacy mode), the OAuth server, the brief pipeline and Postmark's stand-in, and
 * the emulator's quirks (a 403 or 404 must reach the client unchanged, run the function once and count once). What
 * every tool, resource and prompt answers, the HTTP layer's refusals, idempotency and field errors, the quota run to the
 * 121st request and the confirmation's wire format are in tests/doors/mcp.test.ts, in-process, in both eras.
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

const messages = () => standInMessages(postmark);
const sentFor = (leadId: string) => sentForLead(postmark, leadId);

describe.each(eras)("a v2 client $mode, given only /mcp", (era) => {
  it("connects in its era, lists the tools, and reads a tool and a resource that agree with the REST reads", async () => {
    // The pinned client carries a token with only svc:read, which reads as anonymously.
    const headers: Record<string, string> =
      era.era === "modern" ? { Authorization: `Bearer ${(await clientCredentialsToken(base, "svc:read", endpoint)).token}` } : {};
    const client = await connectMcp(endpoint, era, { requestInit: { headers } });
    expect(client.getProtocolEra()).toBe(era.era);
    expect((await client.listTools()).tools).toHaveLength(10);
    const company = (await client.callTool({ name: "get_company", arguments: {} })) as CallToolResult;
    expect(company.structuredContent).toEqual(await rest(`${base}/api/v1/company`));
    const { resources } = await client.listResources();
    const offers = resources.find((r) => r.name === "offers")!;
    const read = (await client.readResource({ uri: offers.uri })).contents[0] as { text: string };
    expect(JSON.parse(read.text)).toEqual(await rest(offers.uri));
    await client.close();
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
    // The emulator's retries of the 403 (at /mcp.html and the like) are not counted again: counted once, against the
    // token's grant and the address's ceiling for grants, in whatever window they fell.
    expect(res.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+, "grants-per-address";r=\d+;t=\d+$/);
    expect(await countedFor(store, "mcp", decodeJwt(readOnly).grant_id as string)).toBe(1);
    // A request without a token counts against the address instead.
    expect(await countedFor(store, "mcp", localClient)).toBe(0);
    const next = await post({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(next.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    expect(await countedFor(store, "mcp", localClient)).toBe(1);
  });
});

/** A machine client with svc:brief, registered at the OAuth server. */
const machine = (name: string) => machineProvider(base, name);

describe("filing through the SDK's client-side OAuth (client_credentials)", () => {
  // Reads go without a token; the first brief meets the 401 and the SDK fetches a token, then retries.
  it("a client pinned to 2026-07-28 files a real brief that reaches the inbox exactly once, recorded as an MCP lead", async () => {
    const client = await connectMcp(
      endpoint,
      eras.find((e) => e.era === "modern")!,
      { authProvider: await machine("modern machine") },
    );
    const brief = freshBrief({ site_size: "growth-site", message: "A new site for our clinics." });
    const result = (await client.callTool({ name: "submit_project_brief", arguments: brief })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const receipt = result.structuredContent as { lead_id: string; status: string; next_steps: string };
    expect(receipt).toMatchObject({ status: "received", lead_id: expect.stringMatching(/^lead_/) });
    expect(receipt.next_steps).toContain(brief.work_email);
    expect(text(result)).toContain(receipt.lead_id);
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length)).toBe(1);
    expect((await sentFor(receipt.lead_id))[0]!.body).toMatchObject({ To: "leads@studio.example", ReplyTo: brief.work_email });
    expect((await store.get<Lead>(`lead:${receipt.lead_id}`))?.channel).toBe("mcp");
    await client.close();
  });

  it("a client in legacy mode validates a dry run, and is told plainly that nothing was filed and nobody e-mailed", async () => {
    const client = await connectMcp(endpoint, legacy, { authProvider: await machine("legacy machine") });
    const before = { leads: await store.zcard("leads"), attempts: (await messages()).attempts };
    const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
    expect(text(result)).toContain("Nothing was filed and nobody was e-mailed");
    expect(await store.zcard("leads")).toBe(before.leads);
    expect((await messages()).attempts).toBe(before.attempts);
    await client.close();
  });
});

describe("the person confirms their own brief", () => {
  it("in a client pinned to 2026-07-28 that shows forms: asked first, then filed and e-mailed with what they corrected", async () => {
    const brief = freshBrief({ message: "A new site for our clinics." });
    const corrected = { ...brief, work_email: `corrected-${brief.work_email}` };
    const modern = eras.find((e) => e.era === "modern")!;
    const forms = await connectShowingForms(endpoint, modern, { authProvider: await machine("client that shows forms") }, () => ({
      action: "accept",
      content: corrected,
    }));
    const result = (await forms.client.callTool({ name: "submit_project_brief", arguments: brief })) as CallToolResult;
    expect(forms.asked).toHaveLength(1);
    expect(forms.asked[0]!.message).toContain("A person at the studio will read it and e-mail you");
    expect(result.isError, text(result)).toBeFalsy();
    const receipt = result.structuredContent as { lead_id: string };
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length)).toBe(1);
    expect((await sentFor(receipt.lead_id))[0]!.body).toMatchObject({ ReplyTo: corrected.work_email });
    expect((await store.get<Lead>(`lead:${receipt.lead_id}`))?.brief).toMatchObject({
      work_email: corrected.work_email,
      full_name: brief.full_name,
    });
    await forms.client.close();
  });
});

describe("2026-07-28 on the raw wire, through the emulator", () => {
  const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const modernPost = (method: string, id: number) =>
    post({ jsonrpc: "2.0", id, method, params: { _meta: envelope } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method });

  it("answers a removed method with 404 and -32601, arriving unchanged and counted once", async () => {
    const res = await modernPost("ping", 21);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 21, error: { code: -32601 } });
    expect(res.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    expect(await countedFor(store, "mcp", localClient)).toBe(1);
  });

  it("answers hostile params with -32602 in words, never -32603 or an engine's text: a brief nested 20,000 deep, a prompt's object argument", async () => {
    const token = (await clientCredentialsToken(base, "svc:brief", endpoint)).token;
    const forms = { ...envelope, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 31,
      method: "tools/call",
      params: { name: "submit_project_brief", arguments: { ...freshBrief(), message: "DEEP" }, _meta: forms },
    }).replace('"DEEP"', `${"[".repeat(20_000)}1${"]".repeat(20_000)}`);
    const deep = await post(call, {
      Authorization: `Bearer ${token}`,
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "submit_project_brief",
    });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ id: 31, error: { code: -32602, message: expect.stringMatching(/more than 32 levels/) } });
    const prompt = await post({
      jsonrpc: "2.0",
      id: 32,
      method: "prompts/get",
      params: { name: "prepare_project_brief", arguments: { a: { b: 1 } } },
    });
    const answer = (await prompt.json()) as { error: { code: number; message: string } };
    expect(answer).toMatchObject({
      id: 32,
      error: { code: -32602, message: "Invalid params: params.arguments.a: expected string, received object." },
    });
  });
});

describe("one answered form files once, through the emulator", () => {
  it("answering the same form again, with other values or the same, files nothing and answers the receipt", async () => {
    const token = (await clientCredentialsToken(base, "svc:brief", endpoint)).token;
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    };
    const brief = freshBrief();
    const submit = async (id: number, extra: object = {}) =>
      (await (
        await post(
          { jsonrpc: "2.0", id, method: "tools/call", params: { name: "submit_project_brief", arguments: brief, _meta, ...extra } },
          {
            Authorization: `Bearer ${token}`,
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/call",
            "Mcp-Name": "submit_project_brief",
          },
        )
      ).json()) as {
        result: { requestState?: string; isError?: boolean; structuredContent?: { lead_id: string }; content: { text: string }[] };
      };
    const { requestState } = (await submit(41)).result;
    const leads = await store.zcard("leads");
    const answer = (id: number, content: object) =>
      submit(id, { requestState, inputResponses: { contact: { action: "accept", content } } });
    const filed = (await answer(42, brief)).result;
    expect(filed.structuredContent?.lead_id).toMatch(/./);
    const edited = (await answer(43, { ...brief, full_name: "Someone Else" })).result;
    expect(edited.structuredContent?.lead_id).toBe(filed.structuredContent?.lead_id);
    expect(edited.content[0]!.text).toContain("This form was already answered");
    const again = (await answer(44, brief)).result;
    expect(again.structuredContent?.lead_id).toBe(filed.structuredContent?.lead_id);
    // An unusable answer after the filing is answered with the filing, never the form again.
    const unusable = (await answer(45, { ...brief, work_email: "not an address" })).result;
    expect(unusable.requestState).toBeUndefined();
    expect(unusable.structuredContent?.lead_id).toBe(filed.structuredContent?.lead_id);
    expect(await store.zcard("leads")).toBe(leads + 1);
  });
});

describe("a form answered again after it was settled, through the emulator", () => {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  type Answer = {
    result: { requestState?: string; isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
  };
  // One client for the whole block: registrations are few an hour from one address.
  let token: string | undefined;
  const caller = async (scope: string) => {
    token ??= (await clientCredentialsToken(base, scope, endpoint)).token;
    return async (id: number, name: string, args: object, extra: object = {}) =>
      (await (
        await post(
          { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta, ...extra } },
          { Authorization: `Bearer ${token}`, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name },
        )
      ).json()) as Answer;
  };

  it.each(["decline", "cancel"])("a later %s of an accepted brief says it was filed, never that it was not", async (action) => {
    const call = await caller("svc:brief");
    const brief = freshBrief();
    const { requestState } = (await call(51, "submit_project_brief", brief)).result;
    const filed = (
      await call(52, "submit_project_brief", brief, { requestState, inputResponses: { contact: { action: "accept", content: brief } } })
    ).result;
    const lead = filed.structuredContent?.lead_id;
    expect(lead).toMatch(/^lead_/);
    const later = (await call(53, "submit_project_brief", brief, { requestState, inputResponses: { contact: { action } } })).result;
    expect(later.isError).toBeFalsy();
    expect(later.content[0]!.text).not.toMatch(/NOT filed/);
    expect(later.content[0]!.text).toContain(`This form was already answered and its brief filed: lead ${lead}`);
    expect(later.structuredContent?.lead_id).toBe(lead);
  });

  it("a declined form files nothing whatever is answered to it after, and an unusable answer after a filing answers the receipt", async () => {
    const call = await caller("svc:brief");
    const brief = freshBrief();
    const leads = await store.zcard("leads");
    const first = (await call(71, "submit_project_brief", brief)).result.requestState;
    const answer = async (id: number, requestState: string | undefined, contact: object) =>
      (await call(id, "submit_project_brief", brief, { requestState, inputResponses: { contact } })).result;
    expect((await answer(72, first, { action: "decline" })).content[0]!.text).toContain("NOT filed");
    const after = await answer(73, first, { action: "accept", content: brief });
    expect(after.isError).toBe(true);
    expect(after.content[0]!.text).toContain("declined this form before");
    expect(await store.zcard("leads")).toBe(leads);

    const second = (await call(74, "submit_project_brief", brief)).result.requestState;
    const filed = await answer(75, second, { action: "accept", content: brief });
    expect(filed.structuredContent?.lead_id).toMatch(/^lead_/);
    const unusable = await answer(76, second, { action: "accept", content: { ...brief, work_email: "nope" } });
    expect(unusable.requestState).toBeUndefined();
    expect(unusable.content[0]!.text).toContain(`lead ${filed.structuredContent?.lead_id}`);
    expect(await store.zcard("leads")).toBe(leads + 1);
  });

  it("a form declined before its key filed through another form answers the receipt, and so does one racing an accept", async () => {
    const call = await caller("svc:brief");
    const brief = freshBrief();
    const keyed = { ...brief, idempotency_key: crypto.randomUUID() };
    const answer = async (id: number, requestState: string | undefined, contact: object) =>
      (await call(id, "submit_project_brief", keyed, { requestState, inputResponses: { contact } })).result;
    const first = (await call(91, "submit_project_brief", keyed)).result.requestState;
    expect((await answer(92, first, { action: "decline" })).content[0]!.text).toContain("NOT filed");
    // The agent asks again with the same key; the person accepts that form: the key files.
    const second = (await call(93, "submit_project_brief", keyed)).result.requestState;
    const filed = await answer(94, second, { action: "accept", content: brief });
    expect(filed.structuredContent?.lead_id).toMatch(/^lead_/);
    const late = await answer(95, first, { action: "accept", content: brief });
    expect(late.structuredContent?.lead_id).toBe(filed.structuredContent?.lead_id);

    // An accept and a cancel of one form at once: both answers tell the same story, with the lead or without one.
    const racing = freshBrief();
    const state = (await call(96, "submit_project_brief", racing)).result.requestState;
    const both = await Promise.all([
      call(97, "submit_project_brief", racing, { requestState: state, inputResponses: { contact: { action: "accept", content: racing } } }),
      call(98, "submit_project_brief", racing, { requestState: state, inputResponses: { contact: { action: "cancel" } } }),
    ]);
    const leads = both.map((b) => b.result.structuredContent?.lead_id);
    expect(leads[0] === undefined ? leads : [leads[1]]).toEqual(leads[0] === undefined ? [undefined, undefined] : [leads[0]]);
  });

  it("a booking form closed without an answer books nothing whatever is answered to it after", async () => {
    const call = await caller("svc:brief");
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const free = (await call(81, "list_free_times", { from: day(54), to: day(57), time_zone: "UTC" })).result.structuredContent as {
      times: { start: string }[];
    };
    const email = `ada.${crypto.randomUUID().slice(0, 8)}@engines.example`;
    const args = { full_name: "Ada Lovelace", work_email: email, start: free.times.at(-1)!.start, time_zone: "UTC" };
    const { requestState } = (await call(82, "book_intro_call", args)).result;
    const answer = async (id: number, contact: object) =>
      (await call(id, "book_intro_call", args, { requestState, inputResponses: { contact } })).result;
    expect((await answer(83, { action: "cancel" })).content[0]!.text).toContain("NOTHING was booked");
    const content = { full_name: args.full_name, work_email: email, start: args.start };
    const after = await answer(84, { action: "accept", content });
    expect(after.isError).toBe(true);
    expect(after.content[0]!.text).toContain("declined this form before");
    const still = (await call(85, "list_free_times", { from: day(54), to: day(57), time_zone: "UTC" })).result.structuredContent as {
      times: { start: string }[];
    };
    expect(still.times.map((t) => t.start)).toContain(args.start);
  });

  it("a later decline of an accepted booking says it was booked, and once cancelled, that it was", async () => {
    const call = await caller("svc:brief");
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const free = (await call(61, "list_free_times", { from: day(50), to: day(53), time_zone: "UTC" })).result.structuredContent as {
      times: { start: string }[];
    };
    const args = {
      full_name: "Ada Lovelace",
      work_email: `ada.${crypto.randomUUID().slice(0, 8)}@engines.example`,
      start: free.times.at(-1)!.start,
      time_zone: "UTC",
    };
    const { requestState } = (await call(62, "book_intro_call", args)).result;
    const content = { full_name: args.full_name, work_email: args.work_email, start: args.start };
    const booked = (await call(63, "book_intro_call", args, { requestState, inputResponses: { contact: { action: "accept", content } } }))
      .result;
    const id = booked.structuredContent?.booking_id;
    expect(id).toMatch(/^bk_/);
    const declined = (await call(64, "book_intro_call", args, { requestState, inputResponses: { contact: { action: "decline" } } })).result;
    expect(declined.content[0]!.text).not.toMatch(/NOTHING was booked/);
    expect(declined.content[0]!.text).toContain(`This form was already answered and its call booked: ${id}`);
    expect((await call(65, "cancel_intro_call", { booking_id: id })).result.isError).toBeFalsy();
    const after = (await call(66, "book_intro_call", args, { requestState, inputResponses: { contact: { action: "cancel" } } })).result;
    expect(after.content[0]!.text).toContain(`Booked before (${id}`);
    expect(after.structuredContent?.status).toBe("cancelled");
  });
});

describe("JSON-RPC batches, through the emulator", () => {
  const reads = (n: number) => Array.from({ length: n }, (_, i) => call("get_company", {}, i + 1));
  const remaining = (res: Response) => Number(/^"mcp";r=(\d+);t=\d+$/.exec(res.headers.get("ratelimit") ?? "")?.[1]);

  it("counts every message of a 2025-03-26 batch (N reads lower RateLimit by N), and refuses a 2025-11-25 batch with -32600 before the SDK", async () => {
    const served = await post(reads(10), { "MCP-Protocol-Version": "2025-03-26" });
    expect(served.status).toBe(200);
    const answers = (await served.json()) as { id: number; result: { structuredContent: unknown } }[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(answers[0]!.result.structuredContent).toEqual(await rest(`${base}/api/v1/company`));
    expect(remaining(served)).toBe(110);

    const refused = await post(reads(10));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message:
          "Invalid request: MCP 2025-11-25 has no JSON-RPC batches (only 2025-03-26 had them): send each message in a POST of its own.",
        data: { code: "invalid_request" },
      },
    });
    // Counted once, in this window or (had it just turned) the next.
    expect([109, 119]).toContain(remaining(refused));
    expect(await countedFor(store, "mcp", localClient)).toBe(11);
  });
});
