import { TaskState, type Task } from "@a2a-js/sdk";
import { Redis } from "@upstash/redis";
import { decodeJwt, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { importSigningKeys } from "../../src/tokens/keys.ts";
import { a2aClient, bindings, brief, isTask, listing, message } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { json, mcpCall } from "../support/calls.ts";
import { startDocumentHost } from "../support/client-documents.ts";
import { fileDeployment } from "../support/deployment.ts";
import { approvals, callbackUri } from "../support/people.ts";
import { countedFor } from "../support/quota-count.ts";

/**
 * An identity per grant, in-process: two people use one public client (a registration, whose client_id travels in every
 * authorization URL, and a metadata document, whose client_id every user of the app shares). What one files is never
 * shown to, replayed for or counted against the other; limits count the grant of a valid token and the address of
 * anything else. tests/doors/crowd.test.ts is the crowd.
 */
const base = "http://localhost:8888";
const { d, clock } = fileDeployment("local", { baseUrl: base, env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" }, clock: true });
let store: Redis;
const grantOf = (token: string) => decodeJwt(token).grant_id as string;
const people = (clientId: string) => approvals(base, clientId, { browser: () => d.fetchFrom(), agent: () => d.fetchFrom() });

const publicClients: [string, () => Promise<string>][] = [
  [
    "a registered public client",
    async () => {
      const res = await d.oauth(
        "/oauth/register",
        json({ client_name: "Shared", redirect_uris: [callbackUri], token_endpoint_auth_method: "none" }),
      );
      return ((await res.json()) as { client_id: string }).client_id;
    },
  ],
  [
    "a metadata-document client",
    async () => {
      const host = await startDocumentHost();
      return host.publishClient(`/app-${crypto.randomUUID()}.json`, { client_name: "Hosted", redirect_uris: [callbackUri] });
    },
  ],
];

beforeAll(() => {
  store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
});

describe.each(publicClients)("two people behind %s", (_kind, newClient) => {
  let victim: string;
  let attacker: string;
  beforeAll(async () => {
    clock.toNextWindow(3600);
    const approving = await people(await newClient());
    [victim, attacker] = [await approving.token(), await approving.token()];
    expect(grantOf(victim)).not.toBe(grantOf(attacker));
    expect(decodeJwt(victim).client_id).toBe(decodeJwt(attacker).client_id);
  });

  describe.each(bindings)("A2A over %s", (_, binding) => {
    const agentOf = (token: string) => a2aClient(base, { binding, token, fetchImpl: d.fetchFrom() });
    let filed: Task;
    let waiting: Task;
    beforeAll(async () => {
      const secret = freshBrief({ phone: "+1 415 555 0100", budget_range: "50k_100k", message: "Confidential: relaunch in May." });
      filed = (await (await agentOf(victim)).sendMessage(brief(secret))) as Task;
      waiting = (await (await agentOf(victim)).sendMessage(brief({ full_name: "Ada Lovelace" }))) as Task;
      expect([filed.status?.state, waiting.status?.state]).toEqual([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED]);
    });

    it("shows the attacker none of the victim's tasks: listed, fetched, cancelled, continued", async () => {
      const spy = await agentOf(attacker);
      const listed = await spy.listTasks(listing({ includeArtifacts: true, historyLength: 10 }));
      expect(listed.tasks.map((t) => t.id)).not.toContain(filed.id);
      expect(JSON.stringify(listed)).not.toContain("Confidential");
      for (const task of [filed, waiting]) {
        await expect(spy.getTask({ id: task.id, historyLength: 10, tenant: "" })).rejects.toThrow(/not found/i);
        await expect(spy.cancelTask({ id: task.id, tenant: "", metadata: undefined })).rejects.toThrow(/not found/i);
      }
      // A follow-up into the victim's waiting task fills in nothing of theirs.
      await expect(spy.sendMessage(message([{ data: freshBrief() }], undefined, waiting.id))).rejects.toThrow(/not found/i);
      const own = await (await agentOf(victim)).getTask({ id: waiting.id, historyLength: 0, tenant: "" });
      expect(own.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    });
  });

  it("counts the attacker's brief messages against the attacker's grant: 30 an hour, and the victim's are untouched", async () => {
    const spy = await a2aClient(base, { token: attacker, fetchImpl: d.fetchFrom() });
    const sent = await countedFor(store, "a2a-briefs", grantOf(attacker));
    for (let i = sent; i < policies["a2a-briefs"].quota; i++) expect(isTask(await spy.sendMessage(brief({})))).toBe(true);
    await expect(spy.sendMessage(brief({}))).rejects.toThrow(/a2a-briefs/);
    const again = await (await a2aClient(base, { token: victim, fetchImpl: d.fetchFrom() })).sendMessage(brief(freshBrief()));
    expect(isTask(again) && again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("never replays the victim's Idempotency-Key or brief for the attacker, over REST and MCP", async () => {
    const key = crypto.randomUUID();
    const body = freshBrief({ message: "Confidential: the board meets Friday." });
    const rest = (token: string, sent = body) =>
      d.api("/api/v1/briefs", json(sent, { authorization: `Bearer ${token}`, "idempotency-key": key }));
    const original = await rest(victim);
    expect(original.status).toBe(201);
    const { lead_id } = (await original.json()) as { lead_id: string };
    // The same key and the very same brief from the other person: a lead of their own, not a replay of the victim's.
    const copy = await rest(attacker);
    expect(copy.status).toBe(201);
    expect(copy.headers.get("idempotent-replayed")).toBeNull();
    expect(((await copy.json()) as { lead_id: string }).lead_id).not.toBe(lead_id);
    // A guessed key with another brief is not "already used" either: the key is the attacker's own.
    expect((await rest(attacker, freshBrief())).status).toBe(422);
    const mcp = await d.mcp(
      mcpCall("tools/call", { name: "submit_project_brief", arguments: { ...body, idempotency_key: key } }, 1, {
        authorization: `Bearer ${attacker}`,
      }),
    );
    const result = ((await mcp.json()) as { result: { structuredContent: { lead_id: string } } }).result;
    expect(result.structuredContent.lead_id).not.toBe(lead_id);
  });
});

describe("tokens issued before grants existed", () => {
  it("are refused as invalid_token at every door, with a reason that says to get a new one", async () => {
    const keys = await importSigningKeys(d.env("OAUTH_SIGNING_KEYS"));
    const iat = Math.floor(Date.now() / 1000);
    const old = await new SignJWT({ client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA", scope: "svc:read svc:brief" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: keys.signing.kid })
      .setIssuer(base)
      .setSubject("fdc_AAAAAAAAAAAAAAAAAAAAAA")
      .setAudience(base)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .setJti(crypto.randomUUID())
      .sign(keys.signing.key);
    const auth = { authorization: `Bearer ${old}` };
    const answers = [
      await d.api("/api/v1/briefs", json(freshBrief(), auth)),
      await d.mcp(mcpCall("tools/list", {}, 1, auth)),
      await d.a2a(json({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }, { ...auth, "a2a-version": "1.0" })),
      await d.a2a({ headers: { ...auth, "a2a-version": "1.0" } }, undefined, "/a2a/v1/rest/tasks"),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain(
        'error_description="The access token predates grant identifiers; get a new one."',
      );
    }
  });
});

describe("limits count who is really calling", () => {
  it("bounds briefs from one address, every grant together: grants farmed there cannot file without end", async () => {
    clock.toNextWindow(3600);
    const farm = d.nextIp();
    const file = (token: string, ip = farm) => d.api("/api/v1/briefs", json(freshBrief(), { authorization: `Bearer ${token}` }), ip);
    expect((await file(await d.token("svc:brief"))).status).toBe(201);
    const [ceiling] = await store.keys(`rl:briefs-per-address:${farm}:*`);
    await store.set(ceiling!, policies["briefs-per-address"].quota, { keepTtl: true });
    const refused = await file(await d.token("svc:brief"));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "brief_quota_exceeded", detail: expect.stringMatching(/every grant together/) });
    expect(refused.headers.get("ratelimit-policy")).toContain('"briefs-per-address";q=100;w=3600');
    // Another address's people are not held by it.
    expect((await file(await d.token("svc:brief"), d.nextIp())).status).toBe(201);
    // The A2A brief skill's messages likewise.
    const message = json(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: {} }], metadata: { skillId: "svc-project-brief" } } },
      },
      { "a2a-version": "1.0" },
    );
    const send = async (ip: string) =>
      d.a2a({ ...message, headers: { ...(message.headers as object), authorization: `Bearer ${await d.token("svc:brief")}` } }, ip);
    expect((await send(farm)).status).toBe(200);
    const [messages] = await store.keys(`rl:a2a-briefs-per-address:${farm}:*`);
    await store.set(messages!, policies["a2a-briefs-per-address"].quota, { keepTtl: true });
    const held = await send(farm);
    expect(held.status).toBe(429);
    expect(held.headers.get("ratelimit-policy")).toContain('"a2a-briefs-per-address";q=300;w=3600');
    expect((await send(d.nextIp())).status).toBe(200);
  });

  const tools = (token?: string) => mcpCall("tools/list", {}, 1, token ? { authorization: `Bearer ${token}` } : {});

  it("counts a valid token's requests against its grant and the address's ceiling, anything else against the address", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const token = await d.token("svc:read");
    const own = await d.mcp(tools(token), ip);
    expect(own.headers.get("ratelimit-policy")).toBe('"mcp";q=120;w=60, "grants-per-address";q=3000;w=60');
    expect(own.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+, "grants-per-address";r=2999;t=\d+$/);
    expect(await countedFor(store, "mcp", ip)).toBe(0);
    const anonymous = await d.mcp(tools(), ip);
    expect(anonymous.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    // A refused token is no better than none: the address's count, and a 401.
    const forged = await d.mcp(tools(`${token.slice(0, -4)}AAAA`), ip);
    expect(forged.status).toBe(401);
    expect(forged.headers.get("ratelimit")).toMatch(/^"mcp";r=118;t=\d+$/);
    expect(await countedFor(store, "mcp", grantOf(token))).toBe(1);
  });

  it("limits a grant past its quota without charging its address, so one grant's loop leaves the others theirs", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const [busy, other] = [await d.token("svc:read"), await d.token("svc:read")];
    await d.mcp(tools(busy), ip);
    const [key] = await store.keys(`rl:mcp:${grantOf(busy)}:*`);
    await store.set(key!, policies.mcp.quota, { keepTtl: true });
    const before = await countedFor(store, "grants-per-address", ip);
    for (let i = 0; i < 5; i++) {
      const refused = await d.mcp(tools(busy), ip);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-policy")).toBe('"mcp";q=120;w=60');
    }
    expect(await countedFor(store, "grants-per-address", ip)).toBe(before);
    expect((await d.mcp(tools(other), ip)).status).toBe(200);
  });

  it("refuses every grant from an address past the ceiling for all of them, and still serves its anonymous reads", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    await d.a2a(
      json(
        { jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} },
        { authorization: `Bearer ${await d.token("svc:read")}`, "a2a-version": "1.0" },
      ),
      ip,
    );
    const [ceiling] = await store.keys(`rl:grants-per-address:${ip}:*`);
    await store.set(ceiling!, policies["grants-per-address"].quota, { keepTtl: true });
    for (const door of [
      (t: string) => d.mcp(tools(t), ip),
      (t: string) => d.a2a({ headers: { authorization: `Bearer ${t}`, "a2a-version": "1.0" } }, ip, "/a2a/v1/rest/tasks"),
    ]) {
      const refused = await door(await d.token("svc:read"));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-policy")).toContain('"grants-per-address";q=3000;w=60');
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await d.mcp(tools(), ip)).status).toBe(200);
  });
});
