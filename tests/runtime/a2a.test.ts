import { AgentCard, verifyAgentCardSignature, type Task } from "@a2a-js/sdk";
import { Redis } from "@upstash/redis";
import { base64url, createLocalJWKSet, decodeJwt, flattenedVerify, importJWK, type JWK } from "jose";
import { describe, expect, inject, it } from "vitest";
import { readSkills } from "../../src/a2a/skills.ts";
import { a2aClient, brief, dataOf } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { statusOf } from "../support/http.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { sentForLead } from "../support/postmark-standin.ts";
import { countedFor } from "../support/quota-count.ts";

/**
 * The A2A agent end to end through the local runtime (npm start), for what only the real runtime shows: the card the
 * build signed, as the static server serves it (headers, validators), verified against the key set the runtime serves;
 * one brief filed with the SDK's client over JSON-RPC down to the Postmark stand-in and read back over HTTP+JSON (both
 * routes of the function under netlify dev); a 403 arriving unchanged, the function run and counted once (netlify dev
 * calls a function again after a 403); a malformed escape, which netlify dev's own servers trip on, mended by the front;
 * a number field holding an object the SDK's decoder throws on, answered as invalid params.
 * The rest runs in-process: each binding's skills, refusals, dry runs, input-required flows and A2A 0.3 in
 * tests/doors/a2a-bindings.test.ts, ListTasks paging, page tokens and privacy in tests/doors/a2a-tasks.test.ts, the
 * HTTP+JSON binding's answers in tests/doors/a2a-rest.test.ts, the challenge, hostile params and the quota in
 * tests/doors/a2a.test.ts, routing and protocol errors in tests/unit/a2a.test.ts.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });

const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/a2a/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "A2A-Version": "1.0", ...headers },
    body: JSON.stringify(body),
  });

describe("the agent card", () => {
  it("is served as JSON with caching headers and CORS, names every interface, and is signed with the served key set", async () => {
    const res = await fetch(`${base}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(await statusOf(`${base}/.well-known/agent-card.json`, { headers: { "If-None-Match": etag! } })).toBe(304);
    const card = (await res.json()) as Record<string, unknown> & {
      supportedInterfaces: unknown[];
      skills: { id: string }[];
      capabilities: unknown;
      signatures: { protected: string; signature: string }[];
    };
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

    // A JWS over the RFC 8785 form of the card without its signatures, verified with jose against the served key set.
    const { signatures, ...unsigned } = card;
    expect(signatures).toHaveLength(1);
    const served = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    const canonical = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(canonical).join(",")}]`
        : v && typeof v === "object"
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
              .join(",")}}`
          : JSON.stringify(v);
    const { protectedHeader } = await flattenedVerify(
      { ...signatures[0]!, payload: base64url.encode(canonical(unsigned)) },
      createLocalJWKSet(served),
    );
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JOSE" });
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

it("files a brief through the SDK's client over JSON-RPC, e-mailed once, and reads its task back over HTTP+JSON", async () => {
  const { token } = await clientCredentialsToken(base, "svc:brief", `${base}/a2a/v1`);
  const client = await a2aClient(base, { binding: "JSONRPC", token });
  expect(client.transport.protocolName).toBe("JSONRPC");
  const task = (await client.sendMessage(brief(freshBrief()))) as Task;
  expect(task.status?.state).toBe(3); // TASK_STATE_COMPLETED
  const receipt = dataOf(task.artifacts[0]!.parts) as { lead_id: string };
  expect(receipt.lead_id).toMatch(/^lead_/);
  await expect.poll(() => sentForLead(postmark, receipt.lead_id).then((m) => m.length)).toBe(1);

  const rest = await a2aClient(base, { binding: "HTTP+JSON", token });
  expect(rest.transport.protocolName).toBe("HTTP+JSON");
  const read = await rest.getTask({ tenant: "", id: task.id });
  expect(read.status?.state).toBe(3);
  expect(dataOf(read.artifacts[0]!.parts)).toEqual(receipt);
});

it("refuses a token without svc:brief: 403 insufficient_scope, running the function once and counting it once", async () => {
  const { token: readOnly } = await clientCredentialsToken(base, "svc:read");
  const call = {
    jsonrpc: "2.0",
    id: 8,
    method: "SendMessage",
    params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
  };
  const { result: res, calls } = await functionCallsDuring(base, inject("netlifyDevLog"), () =>
    rpc(call, { Authorization: `Bearer ${readOnly}` }),
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
  // Counting in full (the address's count, the run to the 121st request) is in tests/doors/a2a.test.ts and grants.test.ts.
  expect(res.headers.get("ratelimit")).toMatch(/^"a2a";r=119;t=\d+, "grants-per-address";r=\d+;t=\d+$/);
  expect(await countedFor(store, "a2a", decodeJwt(readOnly).grant_id as string)).toBe(1);
});

it("answers a path with a malformed escape as google.rpc.Status JSON, never netlify dev's stack, and stays up", async () => {
  const res = await fetch(`${base}/a2a/v1/rest/tasks/%zz`, { headers: { "A2A-Version": "1.0" } });
  const text = await res.text();
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toMatch(/^application\/(a2a\+)?json/);
  expect(res.headers.get("x-powered-by")).toBeNull();
  expect(JSON.parse(text)).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
  expect(text).not.toMatch(/Express|URIError|node_modules|at /);
  // A malformed escape anywhere, even where no function answers, leaves the local runtime up.
  await (await fetch(`${base}/%ZZ`)).body?.cancel();
  expect(await statusOf(`${base}/api/v1`)).toBe(200);
});

it("answers a number field holding an object the SDK's decoder cannot convert as invalid params, never an internal error", async () => {
  const res = await rpc({ jsonrpc: "2.0", id: 9, method: "GetTask", params: { id: "x", historyLength: { toString: "" } } });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32602 } });
});
