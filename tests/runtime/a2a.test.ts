import { AgentCard, SendMessageRequest, verifyAgentCardSignature, type Message, type Task } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import { Redis } from "@upstash/redis";
import { base64url, createRemoteJWKSet, flattenedVerify, importJWK, type JWK } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { readSkills } from "../../src/a2a/skills.ts";
import { freshBrief } from "../support/briefs.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import type { SentMessage } from "../support/postmark-standin.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { countedFor, localClient } from "../support/quota-count.ts";
import { statusOf } from "../support/http.ts";

/** The A2A agent through the local runtime, driven by the SDK's own client built from the agent card URL. */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });

const withToken = (token?: string): typeof fetch =>
  token
    ? (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${token}` } })
    : fetch;
const clientFor = (token?: string, legacy = false) =>
  new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: withToken(token), ...(legacy ? { legacyCompat: { enabled: true } } : {}) })],
    }),
  );
const message = (parts: unknown[], metadata?: Record<string, unknown>, taskId?: string) =>
  SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, metadata, taskId } });
const dataOf = (parts: Message["parts"]) => parts.find((p) => p.content?.$case === "data")?.content?.value;
const textOf = (parts: Message["parts"]) => parts.find((p) => p.content?.$case === "text")?.content?.value as string;
const isTask = (r: Message | Task): r is Task => "status" in r;
const sentFor = async (leadId: string) =>
  ((await (await fetch(`${postmark}/_standin/messages`)).json()) as { sent: SentMessage[] }).sent.filter(
    (m) => (m.body.Metadata as { lead_id: string }).lead_id === leadId,
  );
const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/a2a/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "A2A-Version": "1.0", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

let anonymous: Client;
let token: string;
let readOnlyToken: string;
beforeAll(async () => {
  anonymous = await clientFor().createFromUrl(base);
  token = (await clientCredentialsToken(base, "svc:brief", `${base}/a2a/v1`)).token;
  readOnlyToken = (await clientCredentialsToken(base, "svc:read")).token;
});

describe("the agent card", () => {
  it("is served as JSON with caching headers and CORS, and names JSON-RPC in both versions and HTTP+JSON in 1.0", async () => {
    const res = await fetch(`${base}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(await statusOf(`${base}/.well-known/agent-card.json`, { headers: { "If-None-Match": etag! } })).toBe(304);
    const card = (await res.json()) as { supportedInterfaces: unknown[]; skills: { id: string }[]; capabilities: unknown };
    expect(card.supportedInterfaces).toEqual([
      { url: `${base}/a2a/v1`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: `${base}/a2a/v1`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      { url: `${base}/a2a/v1/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    ]);
    expect(card.skills.map((s) => s.id)).toEqual([...readSkills.map((s) => s.id), "svc-project-brief"]);
    expect(card.capabilities).toEqual({ streaming: false, pushNotifications: false, extendedAgentCard: false });
  });

  it("is signed with the token signing key: JWS over the RFC 8785 form, verified with jose against the served JWKS", async () => {
    const card = (await (await fetch(`${base}/.well-known/agent-card.json`)).json()) as Record<string, unknown> & {
      signatures: { protected: string; signature: string }[];
    };
    const { signatures, ...unsigned } = card;
    expect(signatures).toHaveLength(1);
    const jwks = createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`));
    const canonical = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(canonical).join(",")}]`
        : v && typeof v === "object"
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
              .join(",")}}`
          : JSON.stringify(v);
    const { protectedHeader } = await flattenedVerify({ ...signatures[0]!, payload: base64url.encode(canonical(unsigned)) }, jwks);
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JOSE" });
    const served = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    expect(served.keys[0]!.kid).toBe(protectedHeader!.kid);
    // The SDK's own verifier agrees.
    await verifyAgentCardSignature(
      async (kid) =>
        (await importJWK(
          served.keys.find((k) => k.kid === kid)!,
          "ES256",
        )) as CryptoKey,
    )(card as unknown as AgentCard);
  });
});

describe("reads, anonymously", () => {
  it.each(readSkills.map((s) => s.id))("answers the %s skill with the REST JSON and a short text", async (skill) => {
    const result = await anonymous.sendMessage(message([{ data: { skill } }]));
    expect(isTask(result)).toBe(false);
    const { parts } = result as Message;
    const rest = await (await fetch(`${base}/api/v1/${skill}`)).json();
    expect(dataOf(parts)).toEqual(rest);
    expect(textOf(parts).length).toBeLessThan(200);
  });

  it("routes free text by keywords", async () => {
    const result = (await anonymous.sendMessage(message([{ text: "What do your offers cost?" }]))) as Message;
    expect(dataOf(result.parts)).toEqual(await (await fetch(`${base}/api/v1/offers`)).json());
  });

  it("serves A2A 0.3 clients through the compatibility layer", async () => {
    const card = (await (await fetch(`${base}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { protocolVersion: string }[];
    };
    card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3");
    const legacy = await clientFor(undefined, true).createFromAgentCard(AgentCard.fromJSON(card));
    expect(legacy.protocolVersion).toBe("0.3");
    const result = (await legacy.sendMessage(message([{ text: "show me case studies" }]))) as Message;
    expect(dataOf(result.parts)).toEqual(await (await fetch(`${base}/api/v1/case-studies`)).json());
  });
});

describe("the brief", () => {
  it("refuses a brief without a token: 401 with the A2A resource's challenge, and a JSON-RPC error", async () => {
    const res = await rpc({
      jsonrpc: "2.0",
      id: 7,
      method: "SendMessage",
      params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer scope="svc:brief", resource_metadata="${base}/.well-known/oauth-protected-resource/a2a/v1"`,
    );
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32091 } });
    await expect(anonymous.sendMessage(message([{ data: freshBrief() }]))).rejects.toThrow(/No access token/);
  });

  it("refuses a token without svc:brief: 403 insufficient_scope, running the function once", async () => {
    const { result: res, calls } = await functionCallsDuring(base, inject("netlifyDevLog"), () =>
      rpc(
        {
          jsonrpc: "2.0",
          id: 8,
          method: "SendMessage",
          params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
        },
        { Authorization: `Bearer ${readOnlyToken}` },
      ),
    );
    expect(res.status).toBe(403);
    // netlify dev calls a function again at `/a2a/v1.html` and like paths after a 403; behind npm start's front it must not.
    expect(calls.filter((c) => c.includes("/a2a/v1"))).toEqual(["POST /a2a/v1"]);
    expect(res.headers.get("www-authenticate")).toMatch(
      new RegExp(
        `^Bearer error="insufficient_scope", .*scope="svc:brief", resource_metadata="${base}/.well-known/oauth-protected-resource/a2a/v1"$`,
      ),
    );
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 8, error: { code: -32092 } });
    const client = await clientFor(readOnlyToken).createFromUrl(base);
    await expect(client.sendMessage(message([{ data: freshBrief() }]))).rejects.toThrow(/svc:brief/);
  });

  it("validates a dry run and files nothing", async () => {
    const client = await clientFor(token).createFromUrl(base);
    const leads = await store.zcard("leads");
    const task = (await client.sendMessage(
      message([{ data: { ...freshBrief(), dry_run: true } }], { skillId: "svc-project-brief" }),
    )) as Task;
    expect(task.status?.state).toBe(3); // TASK_STATE_COMPLETED
    expect(dataOf(task.artifacts[0]!.parts)).toMatchObject({ dry_run: true, valid: true });
    expect(await store.zcard("leads")).toBe(leads);
  });

  it("asks for missing fields (input-required), files the brief once they come, and the task can be fetched later", async () => {
    const client = await clientFor(token).createFromUrl(base);
    const brief = freshBrief();
    const first = (await client.sendMessage(message([{ data: { full_name: brief.full_name } }], { skillId: "svc-project-brief" }))) as Task;
    expect(first.status?.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    expect((dataOf(first.status!.message!.parts) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      "/company_name",
      "/work_email",
    ]);
    const done = (await client.sendMessage(
      message([{ data: { company_name: brief.company_name, work_email: brief.work_email } }], undefined, first.id),
    )) as Task;
    expect(done.status?.state).toBe(3);
    const receipt = dataOf(done.artifacts[0]!.parts) as { lead_id: string };
    expect(receipt.lead_id).toMatch(/^lead_/);
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length), { timeout: 10_000 }).toBe(1);

    const again = await (await clientFor(token).createFromUrl(base)).getTask({ tenant: "", id: first.id });
    expect(again.status?.state).toBe(3);
    expect(dataOf(again.artifacts[0]!.parts)).toEqual(receipt);
    await expect(anonymous.getTask({ tenant: "", id: first.id })).rejects.toThrow(/not found/i);
    expect(await sentFor(receipt.lead_id)).toHaveLength(1);
  });
});

describe("limits and errors", () => {
  it.each([
    ["malformed JSON", "{", -32700],
    ["an unknown method", { jsonrpc: "2.0", id: 1, method: "Teleport", params: {} }, -32601],
    [
      "a file part",
      {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ url: "https://x.example/a.pdf" }] } },
      },
      -32005,
    ],
  ])("answers %s with a JSON-RPC error", async (_, body, code) => {
    const res = await rpc(body);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(code);
  });

  it("answers an oversized body with 413 and a JSON-RPC error", async () => {
    const res = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x".repeat(70_000) }] } },
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32094);
  });

  it("counts a refused request once, though netlify dev retries its 403", async () => {
    for (const key of await store.keys("rl:a2a:*")) await store.del(key);
    const refused = await rpc(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
      },
      { Authorization: `Bearer ${readOnlyToken}` },
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get("ratelimit")).toMatch(/^"a2a";r=119;t=\d+$/);
    // Counted once, in whatever window the emulator's calls again fell (the next request shows 118 left, or 119 in a
    // window that started meanwhile). The run to the 121st request is in tests/doors/a2a.test.ts.
    expect(await countedFor(store, "a2a", localClient)).toBe(1);
    const second = await rpc("{");
    expect(second.headers.get("ratelimit")).toMatch(/^"a2a";r=11[89];t=\d+$/);
    expect(second.headers.get("ratelimit-policy")).toBe('"a2a";q=120;w=60');
    expect(await countedFor(store, "a2a", localClient)).toBe(2);
    for (const k of await store.keys("rl:a2a:*")) await store.del(k);
  });
});
