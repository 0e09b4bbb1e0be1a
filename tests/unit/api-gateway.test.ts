import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDeprecations, deprecations, type Deprecation } from "../../src/api/deprecations.ts";
import { matchRoute } from "../../src/api/routes.ts";
import { createApiGateway } from "../../src/api/gateway.ts";
import { problemAnchor, problems } from "../../src/api/problems.ts";
import { QuotaStoreUnavailable, upstashLimiter, type Limiter } from "../../src/limits/limiter.ts";
import { startLocalStore, type LocalStore } from "../../scripts/local-store/store.ts";
import { staticNext } from "../support/static-files.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { patience } from "../support/patience.ts";
import { storeFolder } from "../support/scratch.ts";

const base = "https://studio.example";
const files = { "/api/v1/company": { name: "Kestrel" }, "/api/v1/case-studies/acme": { id: "acme" } };
let dir: string;
let store: LocalStore;
let limiter: Limiter;
let clock: TestClock;
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  clock = installClock();
  dir = await storeFolder("frontdoor-gw-");
  store = await startLocalStore({ token: "t", snapshotFile: join(dir, "s.json") });
  limiter = upstashLimiter(new Redis({ url: store.url, token: "t", enableTelemetry: false }), { cacheBlocked: false, timeoutMs: patience });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
  clock.restore();
});

const gateway = (deprecations: Deprecation[] = []) => createApiGateway({ baseUrl: base, limiter, deprecations, log: () => {} });
const call = (path: string, init: RequestInit = {}, ip = freshIp()) =>
  gateway()(new Request(`${base}${path}`, init), staticNext(files, ip));

describe("the /api gateway", () => {
  it("serves a read with its validators, CORS and the quota", async () => {
    const res = await call("/api/v1/company");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("ratelimit-policy")).toBe('"public-api";q=120;w=60');
    expect(res.headers.get("ratelimit")).toMatch(/^"public-api";r=119;t=\d+$/);
    expect(res.headers.get("ratelimit-remaining")).toBe("119");
    expect(res.headers.get("content-signal")).toBe("search=yes, ai-input=yes, ai-train=no");
    expect(res.headers.get("content-usage")).toBe("search=y, train-ai=n");
    expect(await res.json()).toEqual({ name: "Kestrel" });
  });

  it("answers If-None-Match with 304 and HEAD without a body", async () => {
    const ip = freshIp();
    const etag = (await call("/api/v1/company", {}, ip)).headers.get("etag")!;
    const notModified = await call("/api/v1/company", { headers: { "If-None-Match": `W/${etag}, "other"` } }, ip);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("content-usage")).toBe("search=y, train-ai=n");
    expect(notModified.headers.get("ratelimit")).toMatch(/r=118/);
    const head = await call("/api/v1/company", { method: "HEAD" }, ip);
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.body).toBeNull();
  });

  it.each([
    ["/api/v2", /only major version is v1/],
    ["/api/v1/nope", /API index at \/api\/v1/],
    ["/api/v1/company/x", /API index at \/api\/v1/],
    ["/api/v1/company.json", /no trailing slash and no file extension/],
    ["/api/v1/", /no trailing slash/],
    ["/api/v1/case-studies/zzz", /No case study has the id "zzz"/],
  ])("answers %s with a complete not_found problem", async (path, resolution) => {
    const res = await call(path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("ratelimit")).toMatch(/^"public-api";r=119;/);
    expect(await res.json()).toEqual({
      type: `${base}/developers#error-not-found`,
      title: "Not found",
      status: 404,
      detail: `${path} is not a resource of this API.`,
      instance: path,
      code: "not_found",
      resolution: expect.stringMatching(resolution),
      documentation_url: `${base}/developers#errors`,
    });
  });

  it.each([
    ["PUT", "/api/v1/company", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/v1/offers", "GET, HEAD, OPTIONS"],
    ["PATCH", "/api/v1/case-studies/acme", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1", "GET, HEAD, OPTIONS"],
    ["GET", "/api/v1/briefs", "POST, OPTIONS"],
  ])("answers %s %s with method_not_allowed and Allow: %s", async (method, path, allow) => {
    const res = await call(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    const body = (await res.json()) as { code: string; resolution: string };
    expect(body.code).toBe("method_not_allowed");
    expect(body.resolution).toContain(allow);
  });

  it("answers OPTIONS as a CORS preflight, with the policy of the route's kind: a read's, or the brief's", async () => {
    const read = await call("/api/v1/company", { method: "OPTIONS" });
    expect(read.status).toBe(204);
    expect(read.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(read.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    expect(read.headers.get("access-control-allow-headers")).toBe("Authorization,If-None-Match");
    const write = await call("/api/v1/briefs", { method: "OPTIONS" });
    expect(write.status).toBe(204);
    expect(write.headers.get("allow")).toBe("POST, OPTIONS");
    expect(write.headers.get("access-control-allow-headers")).toBe("Authorization,Content-Type,Idempotency-Key");
    for (const res of [read, write]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-max-age")).toBe("86400");
    }
  });

  it("refuses the 121st request in a window with rate_limited, Retry-After and the quota", async () => {
    const ip = freshIp();
    clock.toNextWindow(60);
    for (let i = 0; i < 120; i++) expect((await call("/api/v1/company", {}, ip)).status).toBe(200);
    const res = await call("/api/v1/nope", {}, ip);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get("ratelimit")).toBe(`"public-api";r=0;t=${res.headers.get("ratelimit-reset")}`);
    expect(Number(res.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(retryAfter);
    const body = (await res.json()) as { code: string; type: string; resolution: string };
    expect(body.code).toBe("rate_limited");
    expect(body.type).toBe(`${base}/developers#${problemAnchor("rate_limited")}`);
    expect(body.resolution).toContain(`Wait ${retryAfter} seconds`);
  });

  it("keeps public reads available when the quota store is unreachable, and says so once", async () => {
    const lines: string[] = [];
    const down: Limiter = {
      consume: () => Promise.reject(new QuotaStoreUnavailable("the quota store is unreachable (public-api): TypeError: fetch failed")),
      consumeGrant: () => Promise.reject(new Error("/api counts the client IP only")),
      refundGrant: () => Promise.reject(new Error("/api counts the client IP only")),
    };
    const gw = createApiGateway({ baseUrl: base, limiter: down, deprecations: [], log: (l) => lines.push(l) });
    for (let i = 0; i < 2; i++) {
      const res = await gw(new Request(`${base}/api/v1/company`), staticNext(files));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"public-api";q=120;w=60');
      expect(res.headers.get("ratelimit")).toBeNull();
    }
    expect(lines).toHaveLength(1);
  });

  it("refuses with service_unavailable when the quota store answers but refuses", async () => {
    const misconfigured: Limiter = {
      consume: () => Promise.reject(new Error("Unauthorized")),
      consumeGrant: () => Promise.reject(new Error("/api counts the client IP only")),
      refundGrant: () => Promise.reject(new Error("/api counts the client IP only")),
    };
    const gw = createApiGateway({ baseUrl: base, limiter: misconfigured, deprecations: [], log: () => {} });
    const res = await gw(new Request(`${base}/api/v1/company`), staticNext(files));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(((await res.json()) as { code: string }).code).toBe("service_unavailable");
  });
});

describe("deprecation (a fixture: nothing under /api/v1 is deprecated)", () => {
  const fixture: Deprecation = {
    method: "GET",
    path: "/api/v1/company",
    deprecatedAt: new Date("2026-01-01T00:00:00Z"),
    sunsetAt: new Date("2026-07-01T00:00:00Z"),
    successor: `${base}/api/v2/company`,
  };

  it("adds Deprecation, Sunset and Link to the deprecated operation only", async () => {
    const gw = gateway([fixture]);
    const res = await gw(new Request(`${base}/api/v1/company`), staticNext(files, freshIp()));
    expect(res.headers.get("deprecation")).toBe("@1767225600");
    expect(res.headers.get("sunset")).toBe("Wed, 01 Jul 2026 00:00:00 GMT");
    expect(res.headers.get("link")).toBe(
      `<${base}/developers/api#versioning>; rel="deprecation"; type="text/html", <${base}/api/v2/company>; rel="successor-version"`,
    );
    const other = await gw(new Request(`${base}/api/v1/offers`), staticNext({ "/api/v1/offers": {} }, freshIp()));
    expect(other.headers.get("deprecation")).toBeNull();
  });

  it("holds the live table to the policy: every entry a route the API has, its sunset 180 days after", () => {
    expect(() => checkDeprecations(deprecations)).not.toThrow();
    for (const d of deprecations) expect(matchRoute(d.path)?.methods, `${d.method} ${d.path}`).toContain(d.method);
  });

  it("refuses a table whose sunset is less than 180 days after deprecation", () => {
    expect(() => checkDeprecations([fixture])).not.toThrow();
    expect(() => checkDeprecations([{ ...fixture, sunsetAt: new Date("2026-03-01T00:00:00Z") }])).toThrow(/at least 180 days/);
  });
});

describe("the problem table", () => {
  it("gives every code a status, a title, a condition and a resolution", () => {
    for (const [code, p] of Object.entries(problems)) {
      expect(p.status, code).toBeGreaterThanOrEqual(400);
      expect(p.title.length * p.condition.length * p.resolution.length, code).toBeGreaterThan(0);
    }
  });
});
