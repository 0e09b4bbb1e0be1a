import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { storeTimeoutMs } from "../../src/store/redis.ts";
import { freshBrief } from "../support/briefs.ts";
import {
  a2aSend,
  answered,
  expectOAuthError,
  expectProblem,
  expectRetryAfter,
  expectRpcError,
  form,
  json,
  mcpCall,
} from "../support/calls.ts";
import { redisDatabase } from "./support/databases.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import type { Fault } from "../support/fault-front.ts";
import { consentForm, registerClient } from "../support/deployment-oauth.ts";

/**
 * Upstash down (connection refused), slow (the command is carried out but its answer comes after the client's
 * deadline), failing (HTTP 500) and malformed (200 with an HTML body). Every handler that uses the store answers in
 * bounded time in its own protocol's format, and recovers by itself: the handler instances are built once, before the
 * first fault, and never rebuilt.
 */
let d: Deployment;
let client: { client_id: string; client_secret: string };
beforeAll(async () => {
  // Production's store deadline, which this file is about. A slow store holds its answers until the client gives up,
  // so every call it slows is an outage whatever the machine's load; the file's other calls are few, on an idle process.
  d = await startDeployment(redisDatabase["upstash-faults"], { env: { FRONTDOOR_STORE_TIMEOUT_MS: String(storeTimeoutMs) } });
  client = await registerClient(d);
  // Each handler builds itself on its first request: build them all while the store is up.
  await Promise.all([d.api("/api/v1"), d.contact(form({})), d.mcp(mcpCall("ping")), d.a2a(a2aSend([{ text: "offers" }]))]).then(
    (responses) => Promise.all(responses.map((r) => r.body?.cancel())),
  );
});
afterAll(async () => {
  await d.settle();
  await d.close();
});

const unreachable: Fault[] = ["down", "slow"];
const brief = () => freshBrief({ message: "Resilience" });
// A new OAuth client each time: each may file only 10 briefs an hour.
const bearer = async () => ({ authorization: `Bearer ${await d.token()}` });

// Each fault's surfaces are tried at once (a slow store makes every call wait out its deadline), then the recovery.
describe.each(["down", "slow", "http-500", "malformed"] as const)("when Upstash is %s", (fault) => {
  const outage = unreachable.includes(fault);
  let consent: Awaited<ReturnType<typeof consentForm>>;
  beforeAll(async () => {
    consent = await consentForm(d, client.client_id);
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    await d.upstash.set(fault);
  });
  afterAll(async () => {
    await d.upstash.set(undefined);
    vi.restoreAllMocks();
  });

  it.concurrent(
    outage
      ? "/api serves public reads without enforcing the quota, reporting the policy only"
      : "/api answers service_unavailable (503 problem, Retry-After)",
    async () => {
      const res = await answered(d.api("/api/v1/company"));
      if (outage) {
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit-policy")).toBe('"public-api";q=120;w=60');
        expect(res.headers.get("ratelimit")).toBeNull();
        expect(await res.json()).toEqual(d.resources.company);
      } else {
        await expectProblem(res, 503, "service_unavailable");
        expectRetryAfter(res);
      }
    },
  );

  it.concurrent("POST /api/v1/briefs answers service_unavailable (503 problem, Retry-After) and records nothing", async () => {
    const body = brief();
    const res = await answered(d.api("/api/v1/briefs", json(body, await bearer())));
    await expectProblem(res, 503, "service_unavailable");
    expectRetryAfter(res);
    // d.leads reads the store itself, not through the fault.
    expect((await d.leads.list(1000)).filter((l) => l.brief.company_name === body.company_name)).toEqual([]);
  });

  it.concurrent("the contact form answers its 'not sent' page (503, Retry-After)", async () => {
    const b = brief();
    const res = await answered(d.contact(form({ full_name: b.full_name, company_name: b.company_name, work_email: b.work_email })));
    expect(res.status).toBe(503);
    expectRetryAfter(res);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("Your brief was not sent");
  });

  it.concurrent(
    outage
      ? "/mcp serves reads; submit_project_brief answers a tool error saying nothing was recorded"
      : "/mcp answers a JSON-RPC service_unavailable error (503, Retry-After)",
    async () => {
      const auth = await bearer();
      const [list, file] = await Promise.all([
        answered(d.mcp(mcpCall("tools/list", {}, 3))),
        answered(d.mcp(mcpCall("tools/call", { name: "submit_project_brief", arguments: brief() }, 4, auth))),
      ]);
      if (outage) {
        expect(list.status).toBe(200);
        expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
        expect(file.status).toBe(200);
        const result = ((await file.json()) as { result: { isError: boolean; content: { text: string }[] } }).result;
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toContain("NOT recorded");
      } else {
        // Each request was read while it was counted, so its refusal answers its id.
        for (const [res, id] of [
          [list, 3],
          [file, 4],
        ] as const) {
          expect(res.status).toBe(503);
          expectRetryAfter(res);
          expect((await expectRpcError(res, id)).error.code).toBe(-32093);
        }
      }
    },
  );

  it.concurrent(
    outage
      ? "/a2a/v1 serves reads; a brief and ListTasks answer a JSON-RPC service_unavailable error (503, Retry-After)"
      : "/a2a/v1 answers a JSON-RPC service_unavailable error (503, Retry-After)",
    async () => {
      const [filer, lister] = [await bearer(), await bearer()];
      const [read, file, list] = await Promise.all([
        answered(d.a2a(a2aSend([{ text: "What do your offers cost?" }]))),
        answered(d.a2a(a2aSend([{ data: brief() }], filer, { skillId: "svc-project-brief" }))),
        answered(d.a2a(json({ jsonrpc: "2.0", id: 8, method: "ListTasks", params: {} }, { "a2a-version": "1.0", ...lister }))),
      ]);
      // Listing reads the task index: it fails with the store, whatever else is served (a read request answers its id).
      expect(list.status).toBe(503);
      expectRetryAfter(list);
      expect((await expectRpcError(list, outage ? 8 : undefined)).error.code).toBe(-32093);
      if (outage) {
        expect(read.status).toBe(200);
        expect(((await read.json()) as { result: { message: unknown } }).result.message).toBeDefined();
        // The brief cannot be recorded, nor its task.
        expect(file.status).toBe(503);
        expectRetryAfter(file);
        expect((await expectRpcError(file, 7)).error.code).toBe(-32093);
      } else {
        for (const res of [read, file]) {
          expect(res.status).toBe(503);
          expectRetryAfter(res);
          expect((await expectRpcError(res)).error.code).toBe(-32093);
        }
      }
    },
  );

  it.concurrent(
    "/oauth register and token answer temporarily_unavailable (503, Retry-After); the consent screen and form a 503 page",
    async () => {
      const json503 = [
        d.oauth("/oauth/register", json({ client_name: "x", redirect_uris: ["http://127.0.0.1/cb"] })),
        d.oauth(
          "/oauth/token",
          form({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: "svc:brief" }),
        ),
      ];
      // A person in a browser reads a page there, never a redirect: the client and its redirect URI are not trusted yet.
      const pages = [
        d.oauth(`/oauth/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=http://127.0.0.1/callback`),
        d.oauth("/oauth/authorize", form({ request: consent.request, decision: "approve" }, { cookie: consent.cookie, origin: d.baseUrl })),
      ];
      const [jsonAnswers, pageAnswers] = await Promise.all([json503, pages].map((calls) => Promise.all(calls.map((c) => answered(c)))));
      for (const res of jsonAnswers!) {
        await expectOAuthError(res, 503, "temporarily_unavailable");
        expectRetryAfter(res);
      }
      for (const res of pageAnswers!) {
        expect(res.status).toBe(503);
        expect(res.headers.get("content-type")).toMatch(/^text\/html/);
        expect(res.headers.get("location")).toBeNull();
        expect(await res.text()).toContain("Retry after");
        expectRetryAfter(res);
      }
    },
  );

  it("every handler answers normally again once the store is back, without a restart", async () => {
    await d.upstash.set(undefined);
    const read = await d.api("/api/v1/company");
    expect(read.status).toBe(200);
    expect(read.headers.get("ratelimit")).toMatch(/^"public-api";r=119;t=\d+$/);
    await read.body?.cancel();

    const filed = await d.api("/api/v1/briefs", json(brief(), await bearer()));
    expect(filed.status).toBe(201);
    const { lead_id } = (await filed.json()) as { lead_id: string };
    expect(await d.leads.get(lead_id)).not.toBeNull();

    const b = brief();
    const contact = await d.contact(form({ full_name: b.full_name, company_name: b.company_name, work_email: b.work_email }));
    expect(contact.status).toBe(200);
    expect(await contact.text()).toContain("Reference: lead_");

    const tool = await d.mcp(mcpCall("tools/call", { name: "submit_project_brief", arguments: brief() }, 5, await bearer()));
    expect(((await tool.json()) as { result: { structuredContent: { lead_id: string } } }).result.structuredContent.lead_id).toMatch(
      /^lead_/,
    );

    const task = await d.a2a(a2aSend([{ data: brief() }], await bearer(), { skillId: "svc-project-brief" }));
    expect(((await task.json()) as { result: { task: { status: { state: string } } } }).result.task.status.state).toBe(
      "TASK_STATE_COMPLETED",
    );

    const issued = await d.oauth(
      "/oauth/token",
      form({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: "svc:brief" }),
    );
    expect(issued.status).toBe(200);
    expect(await issued.json()).toMatchObject({ token_type: "Bearer", access_token: expect.any(String) });
    await d.settle();
  });
});

describe("a brief whose answer was lost to a slow store", () => {
  it("file one lead when the first answer was lost to a slow store and the client retried", async () => {
    const token = await d.token();
    const key = randomUUID();
    const body = freshBrief();
    const headers = { authorization: `Bearer ${token}`, "idempotency-key": key };
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    await d.upstash.set("slow");
    try {
      const lost = await answered(d.api("/api/v1/briefs", json(body, headers)));
      expect(lost.status).toBe(503);
      await lost.body?.cancel();
    } finally {
      await d.upstash.set(undefined);
      vi.restoreAllMocks();
    }
    const retries = await Promise.all(Array.from({ length: 5 }, () => d.api("/api/v1/briefs", json(body, headers))));
    expect(retries.map((r) => r.status)).toEqual(retries.map(() => 201));
    const ids = new Set(await Promise.all(retries.map(async (r) => ((await r.json()) as { lead_id: string }).lead_id)));
    expect(ids.size).toBe(1);
    await d.settle();
    expect((await d.leads.list(1000)).filter((l) => l.brief.company_name === body.company_name)).toHaveLength(1);
  });
});
