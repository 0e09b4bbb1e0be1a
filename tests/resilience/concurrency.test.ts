import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiGateway } from "../../src/api/gateway.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { freshBrief } from "../support/briefs.ts";
import { staticNext } from "../support/static-files.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { json } from "../support/calls.ts";
import { redisDatabase } from "./support/databases.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import { approvedCode, redeem, registerClient } from "../support/deployment-oauth.ts";
import { patience } from "../support/patience.ts";

/**
 * What must hold when many requests arrive at once: the quota is exact, an authorization code is redeemed once, and
 * concurrent retries with one Idempotency-Key file one lead, on the suite's store (the machine's Redis, as in CI). The
 * Upstash contract tests hold the local store to the same exact count.
 */
let d: Deployment;
let clock: TestClock;
beforeAll(async () => {
  clock = installClock();
  // What is held here is atomicity, not latency: the deployment's store deadline is the shared patience, so 50 requests
  // at once on a loaded machine are slow, never 503 (production's deadline is tests/resilience/upstash-faults.test.ts's).
  d = await startDeployment(redisDatabase.concurrency);
});
afterAll(async () => {
  await d.settle();
  await d.close();
  clock.restore();
});

describe("the public-api quota", () => {
  it("lets exactly 120 of 200 simultaneous requests from one IP through, across 20 gateway instances", async () => {
    // Each instance is one edge isolate with its own limiter (and blocked-client cache) over the shared store.
    const instances = Array.from({ length: 20 }, () =>
      createApiGateway({
        baseUrl: "https://studio.example",
        limiter: upstashLimiter(new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false }), { timeoutMs: patience }),
        deprecations: [],
        log: () => {},
      }),
    );
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const files = { "/api/v1/company": { name: randomUUID() } };
    clock.toNextWindow(60);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        instances[i % 20]!(new Request("https://studio.example/api/v1/company"), staticNext(files, ip)),
      ),
    );
    const statuses = responses.map((r) => r.status);
    await Promise.all(responses.map((r) => r.body?.cancel()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    for (const r of responses.filter((r) => r.status === 429)) {
      expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(r.headers.get("ratelimit")).toMatch(/^"public-api";r=0;t=\d+$/);
    }
  });
});

describe("an authorization code", () => {
  it("is redeemed exactly once under 50 concurrent redemptions: one token, so the approval makes one grant", async () => {
    const client = await registerClient(d);
    const { code, verifier } = await approvedCode(d, client.client_id);
    const results = await Promise.all(Array.from({ length: 50 }, () => redeem(d, client, code, verifier)));
    const bodies = (await Promise.all(results.map((r) => r.json()))) as { access_token?: string; error?: string }[];
    const tokens = bodies.filter((b) => b.access_token);
    expect(tokens).toHaveLength(1);
    expect(decodeJwt(tokens[0]!.access_token!).grant_id).toMatch(/^ga_/);
    expect(bodies.filter((b) => b.error === "invalid_grant")).toHaveLength(49);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
  });
});

describe("the same brief sent at once without a key", () => {
  it("is one lead, counted once: one 201, the rest 200 naming it, and the grant's RateLimit says what is left", async () => {
    const token = await d.token();
    const body = freshBrief();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => d.api("/api/v1/briefs", json(body, { authorization: `Bearer ${token}` }))),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([...Array(9).fill(200), 201]);
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as { lead_id: string }).lead_id)));
    expect(ids.size).toBe(1);
    const next = await d.api("/api/v1/briefs", json(freshBrief(), { authorization: `Bearer ${token}` }));
    expect(next.status).toBe(201);
    expect(next.headers.get("ratelimit")).toContain('"briefs-per-grant";r=8');
  });
});

describe("concurrent retries with one Idempotency-Key", () => {
  it("file exactly one lead and e-mail it once: one 201, the rest identical replays", async () => {
    const token = await d.token();
    const key = randomUUID();
    const body = freshBrief();
    const sentBefore = d.postmark.sent.length;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => d.api("/api/v1/briefs", json(body, { authorization: `Bearer ${token}`, "idempotency-key": key }))),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as { lead_id: string }).lead_id)));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    await d.settle();
    const [id] = [...ids];
    expect((await d.leads.list(1000)).filter((l) => l.brief.company_name === body.company_name).map((l) => l.id)).toEqual([id]);
    expect(d.postmark.sent.slice(sentBefore).filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === id)).toHaveLength(1);
  });
});
