import { AgentCard, verifyAgentCardSignature, type Message, type Task } from "@a2a-js/sdk";
import { Redis } from "@upstash/redis";
import { base64url, createRemoteJWKSet, decodeJwt, flattenedVerify, importJWK, type JWK } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { readSkills } from "../../src/a2a/skills.ts";
import { a2aClient, bindings, brief, dataOf, isTask, listing, message, textOf } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { statusOf } from "../support/http.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { sentForLead } from "../support/postmark-standin.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * The A2A agent end to end through the local runtime (npm start), the smoke test of what only the real runtime shows:
 * the card as served, with its headers and its signature checked against the served key set; one anonymous read; the
 * brief's 401 and 403, the refusal run and counted once; one brief filed over each binding down to the Postmark
 * stand-in; ListTasks showing only the caller's tasks. The rest runs in-process: each binding's skills, refusals, dry
 * runs, input-required flows and A2A 0.3 in tests/doors/a2a-bindings.test.ts, ListTasks paging, filters and privacy in
 * tests/doors/a2a-tasks.test.ts, the HTTP+JSON binding's answers in tests/doors/a2a-rest.test.ts, the quota in
 * tests/doors/a2a.test.ts, routing and protocol errors in tests/unit/a2a.test.ts.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });

const sentFor = (leadId: string) => sentForLead(postmark, leadId);
const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/a2a/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "A2A-Version": "1.0", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const briefCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "SendMessage",
  params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
});

let briefTokens: string[];
let readOnlyToken: string;
beforeAll(async () => {
  const tokens = await Promise.all([
    clientCredentialsToken(base, "svc:brief", `${base}/a2a/v1`),
    clientCredentialsToken(base, "svc:brief", `${base}/a2a/v1`),
    clientCredentialsToken(base, "svc:read"),
  ]);
  briefTokens = tokens.slice(0, 2).map((t) => t.token);
  readOnlyToken = tokens[2]!.token;
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
    expect(card.skills.map((s) => s.id)).toEqual([
      ...readSkills.map((s) => s.id),
      "svc-project-brief",
      "free-times",
      "svc-book-intro-call",
      "svc-cancel-intro-call",
    ]);
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

it("answers a read anonymously with the REST JSON and a short text, through the SDK's client built from the card URL", async () => {
  const result = await (await a2aClient(base)).sendMessage(message([{ data: { skill: "offers" } }]));
  expect(isTask(result)).toBe(false);
  const { parts } = result as Message;
  expect(dataOf(parts)).toEqual(await (await fetch(`${base}/api/v1/offers`)).json());
  expect(textOf(parts).length).toBeLessThan(200);
});

describe("the brief's refusals", () => {
  it("refuses a brief without a token: 401 with the A2A resource's challenge, and a JSON-RPC error", async () => {
    const res = await rpc(briefCall(7));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer scope="svc:brief", resource_metadata="${base}/.well-known/oauth-protected-resource/a2a/v1"`,
    );
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32091 } });
  });

  it("answers a message id that is an object with no string form with invalid params, never a 5xx (found by fuzzing)", async () => {
    const message = { messageId: { toString: false }, role: "ROLE_USER", parts: [{ data: freshBrief() }] };
    const res = await rpc({ jsonrpc: "2.0", id: 9, method: "SendMessage", params: { message } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32602 } });
  });

  it("refuses a token without svc:brief: 403 insufficient_scope, running the function once and counting it once", async () => {
    for (const key of await store.keys("rl:a2a:*")) await store.del(key);
    const { result: res, calls } = await functionCallsDuring(base, inject("netlifyDevLog"), () =>
      rpc(briefCall(8), { Authorization: `Bearer ${readOnlyToken}` }),
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
    // Counted once, against the token's grant and the address's ceiling for grants, in whatever window the calls fell.
    // The run to the 121st request is in tests/doors/a2a.test.ts.
    expect(res.headers.get("ratelimit")).toMatch(/^"a2a";r=119;t=\d+, "grants-per-address";r=\d+;t=\d+$/);
    expect(await countedFor(store, "a2a", decodeJwt(readOnlyToken).grant_id as string)).toBe(1);
    // A request without a token counts against the address instead.
    expect(await countedFor(store, "a2a", localClient)).toBe(0);
    const second = await rpc("{");
    expect(second.headers.get("ratelimit")).toMatch(/^"a2a";r=119;t=\d+$/);
    expect(second.headers.get("ratelimit-policy")).toBe('"a2a";q=120;w=60');
    expect(await countedFor(store, "a2a", localClient)).toBe(1);
  });
});

describe("hostile params", () => {
  it("answers them with invalid params in words, never -32603 or an engine's text: a data part 30,000 deep, a 0.3 task id that is a number", async () => {
    const deep = (version?: string) =>
      rpc(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 41,
          method: version ? "SendMessage" : "message/send",
          params: {
            message: version
              ? { messageId: "m", role: "ROLE_USER", parts: [{ data: "DEEP" }] }
              : { kind: "message", messageId: "m", role: "user", parts: [{ kind: "data", data: "DEEP" }] },
          },
        }).replace('"DEEP"', `${"[".repeat(30_000)}1${"]".repeat(30_000)}`),
        version ? { "A2A-Version": version } : { "A2A-Version": "" },
      );
    for (const res of [await deep("1.0"), await deep()]) {
      const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(answer).toMatchObject({ id: 41, error: { code: -32602 } });
      expect(answer.error.message).toMatch(/more than 32 levels/);
    }
    const legacy = await rpc({ jsonrpc: "2.0", id: 42, method: "tasks/get", params: { id: 1 } }, { "A2A-Version": "" });
    expect(await legacy.json()).toMatchObject({ id: 42, error: { code: -32602, message: "Invalid params: params.id must be a string." } });
  });

  it("answers a 1.0 id or message field that is not a string with invalid params naming it, never an id made of it", async () => {
    const auth = { Authorization: `Bearer ${briefTokens[0]}` };
    const calls = [
      [{ method: "GetTask", params: { id: {} } }, "params.id must be a string."],
      [{ method: "CancelTask", params: { id: [1] } }, "params.id must be a string."],
      [{ method: "ListTasks", params: { contextId: {} } }, "params.contextId must be a string."],
      [
        { method: "SendMessage", params: { message: { messageId: "m", taskId: {}, role: "ROLE_USER", parts: [{ text: "hi" }] } } },
        "params.message.taskId must be a string.",
      ],
      [
        { method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: { a: 1 } }] } } },
        "params.message.parts[0].text must be a string.",
      ],
    ] as const;
    for (const [call, message] of calls) {
      const answer = await (await rpc({ jsonrpc: "2.0", id: 43, ...call }, auth)).json();
      expect(answer, JSON.stringify(call)).toEqual({
        jsonrpc: "2.0",
        id: 43,
        error: expect.objectContaining({ code: -32602, message: `Invalid params: ${message}` }),
      });
    }
    const rest = await fetch(`${base}/a2a/v1/rest/message:send`, {
      method: "POST",
      headers: { "Content-Type": "application/a2a+json", "A2A-Version": "1.0", ...auth },
      body: JSON.stringify({ message: { messageId: {}, role: "ROLE_USER", parts: [{ data: freshBrief() }] } }),
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT", message: "Invalid params: message.messageId must be a string." },
    });
  });
  it("answers a method its version does not define as not found (-32601) with or without params, never as invalid params", async () => {
    for (const [call, version] of [
      [{ method: "DeleteEverything" }, "1.0"],
      [{ method: "message/send" }, "1.0"],
      [{ method: "tasks/delete", params: {} }, "0.3"],
    ] as const) {
      const answer = await (await rpc({ jsonrpc: "2.0", id: 44, ...call }, { "A2A-Version": version })).json();
      expect(answer, JSON.stringify(call)).toEqual({ jsonrpc: "2.0", id: 44, error: expect.objectContaining({ code: -32601 }) });
    }
  });
});

describe("the HTTP+JSON binding's routes", () => {
  it("answers a path with a malformed escape as google.rpc.Status JSON, never a page or a stack, and stays up", async () => {
    const answers = [
      await fetch(`${base}/a2a/v1/rest/tasks/%zz`, { headers: { "A2A-Version": "1.0" } }),
      await fetch(`${base}/a2a/v1/rest/tasks/%00%ff`, { headers: { "A2A-Version": "1.0" } }),
      await fetch(`${base}/a2a/v1/rest/tasks/%zz:cancel`, { method: "POST", headers: { "A2A-Version": "1.0" } }),
    ];
    for (const res of answers) {
      const text = await res.text();
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/(a2a\+)?json/);
      expect(res.headers.get("x-powered-by")).toBeNull();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
      expect(text).not.toMatch(/Express|URIError|node_modules|at /);
    }
    // A malformed escape anywhere, even where no function answers, leaves the local runtime up.
    await (await fetch(`${base}/%ZZ`)).body?.cancel();
    expect((await fetch(`${base}/api/v1`)).status).toBe(200);
  });

  it("answers another spelling of a route (a trailing slash, another case) not_found as google.rpc.Status, never through the gate's side door", async () => {
    for (const path of ["/a2a/v1/rest/message:send/", "/a2a/v1/rest/Message:Send"]) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "A2A-Version": "1.0" },
        body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } }),
      });
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    }
  });
});

describe("briefs filed end to end", () => {
  const filed: Task[] = [];
  it.each(bindings.map(([name, binding], i) => [name, binding, i] as const))(
    "files a brief over %s, e-mailed once to the Postmark stand-in",
    async (_, binding, i) => {
      const client = await a2aClient(base, { binding, token: briefTokens[i] });
      expect(client.transport.protocolName).toBe(binding);
      const task = (await client.sendMessage(brief(freshBrief()))) as Task;
      expect(task.status?.state).toBe(3); // TASK_STATE_COMPLETED
      const receipt = dataOf(task.artifacts[0]!.parts) as { lead_id: string };
      expect(receipt.lead_id).toMatch(/^lead_/);
      await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length)).toBe(1);
      filed[i] = task;
    },
  );

  it("lists the caller's own task only, not the other client's", async () => {
    const listed = await (await a2aClient(base, { token: briefTokens[0] })).listTasks(listing());
    expect(listed.tasks.map((t) => t.id)).toEqual([filed[0]!.id]);
    expect(filed[1]?.id).toBeTruthy();
  });
});

describe("ListTasks page tokens", () => {
  /** A position anyone can spell: base64url of `[statusTimestampMs, taskId]`, signed by no one. */
  const forged = Buffer.from(JSON.stringify([9_999_999_999_999, "zzzz"])).toString("base64url");
  let tasks: string[];
  let nextPageToken: string;
  beforeAll(async () => {
    const client = await a2aClient(base, { token: briefTokens[0] });
    for (let i = 0; i < 2; i++) await client.sendMessage(brief(freshBrief({ dry_run: true })));
    const first = await client.listTasks(listing({ pageSize: 1 }));
    tasks = first.tasks.map((t) => t.id);
    nextPageToken = first.nextPageToken;
  });

  it.each(bindings)("pages on with the token issued to the grant that listed, over %s", async (_, binding) => {
    expect(nextPageToken).not.toBe("");
    const next = await (
      await a2aClient(base, { binding, token: briefTokens[0] })
    ).listTasks(listing({ pageSize: 1, pageToken: nextPageToken }));
    expect(next.tasks).toHaveLength(1);
    expect(tasks).not.toContain(next.tasks[0]!.id);
  });

  it.each(bindings)("refuses a token it did not issue, and one issued to another grant, as InvalidParams over %s", async (_, binding) => {
    const refusal = { name: "RequestMalformedError", message: expect.stringMatching(/pageToken/) };
    const own = await a2aClient(base, { binding, token: briefTokens[0] });
    await expect(own.listTasks(listing({ pageToken: forged }))).rejects.toMatchObject(refusal);
    const other = await a2aClient(base, { binding, token: briefTokens[1] });
    await expect(other.listTasks(listing({ pageToken: nextPageToken }))).rejects.toMatchObject(refusal);
  });

  it("answers a forged token -32602 on JSON-RPC, 400 INVALID_ARGUMENT on HTTP+JSON", async () => {
    const auth = { authorization: `Bearer ${briefTokens[0]}` };
    const res = await rpc({ jsonrpc: "2.0", id: 7, method: "ListTasks", params: { pageToken: forged } }, auth);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const rest = await fetch(`${base}/a2a/v1/rest/tasks?pageToken=${forged}`, { headers: { ...auth, "A2A-Version": "1.0" } });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  });
});
