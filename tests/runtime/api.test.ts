import { Validator } from "@seriousme/openapi-schema-validator";
import { Redis } from "@upstash/redis";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { expectQuotaHeaders } from "../support/api-quota.ts";

/**
 * /api end to end through the local runtime: netlify dev running the /api edge function over the local store (which
 * speaks the Upstash protocol) and its rewrites to the prebuilt files. What only the platform shows: a refusal where a
 * prebuilt file exists or a rewrite finds none, in every field; a static path's method and a function's; the reads'
 * validators as served, compressed or not, with HEAD, OPTIONS and 304; the OpenAPI document served with its media type.
 * Each path and method the gateway refuses is in tests/unit/api-gateway.test.ts; the index and every answer against the
 * OpenAPI document, and the quota's run to the 121st request, are in tests/doors/api.test.ts; the anchors the problem
 * types name, in tests/runtime/published-urls.test.ts.
 */
const base = inject("baseUrl");
const store = inject("store");
const api = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { redirect: "manual", ...init });

// The emulator gives every client 127.0.0.1: each test starts from a fresh quota (files run one at a time).
beforeEach(async () => {
  const redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
  const keys = await redis.keys("rl:public-api:*");
  if (keys.length > 0) await redis.del(...keys);
});

describe("errors under /api", () => {
  it("answers a file's own path, a rewrite to no file and the bare /api with a not_found problem in every field", async () => {
    for (const path of ["/api/v1/company.json", "/api/v1/case-studies/no-such-study", "/api"]) {
      const res = await api(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toBe("application/problem+json");
      expectQuotaHeaders(res);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort(), path).toEqual([
        "code",
        "detail",
        "documentation_url",
        "instance",
        "resolution",
        "status",
        "title",
        "type",
      ]);
      expect(body, path).toMatchObject({
        type: `${base}/developers#error-not-found`,
        status: 404,
        code: "not_found",
        instance: path,
        documentation_url: `${base}/developers#errors`,
      });
    }
  });

  it("answers a method a prebuilt read or a function does not take with method_not_allowed and the route's Allow", async () => {
    for (const [method, path, allow] of [
      ["POST", "/api/v1/contact", "GET, HEAD, OPTIONS"],
      ["GET", "/api/v1/briefs", "POST, OPTIONS"],
    ] as const) {
      const res = await api(path, { method, body: method === "GET" ? undefined : "{}" });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow"), path).toBe(allow);
      expect(res.headers.get("content-type"), path).toBe("application/problem+json");
      expectQuotaHeaders(res);
      expect(((await res.json()) as { code: string }).code, path).toBe("method_not_allowed");
    }
  });
});

describe("reads", () => {
  it("work with HEAD and OPTIONS, carry validators and answer If-None-Match with 304", async () => {
    const get = await api("/api/v1/offers");
    expect(get.status).toBe(200);
    expect(get.headers.get("access-control-allow-origin")).toBe("*");
    expect(get.headers.get("x-content-type-options")).toBe("nosniff");
    expect(get.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const etag = get.headers.get("etag")!;
    // A compressed answer's tag is weak (the bytes sent differ from the ones tagged); an uncompressed one is strong.
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]+"$/);
    await get.body?.cancel();
    const identity = await api("/api/v1/offers", { headers: { "Accept-Encoding": "identity" } });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(identity.headers.get("etag")).toBe(`"${etag.replace(/^W\/|"/g, "")}"`);
    await identity.body?.cancel();

    const head = await api("/api/v1/offers", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")?.replace(/^W\//, "")).toBe(etag.replace(/^W\//, ""));
    expectQuotaHeaders(head);

    const options = await api("/api/v1/offers", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    // A preflight is the browser's, answered by CORS before anything counts: no door counts one.
    expect(options.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    expect(options.headers.get("ratelimit")).toBeNull();

    const conditional = await api("/api/v1/offers", { headers: { "If-None-Match": etag } });
    expect(conditional.status).toBe(304);
    expectQuotaHeaders(conditional);
  });
});

describe("the machine-readable description", () => {
  it("is a valid OpenAPI 3.1 document, linked from the index and the developer guide's API page", async () => {
    const res = await api("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.oai.openapi+json;version=3.1");
    const document = await res.json();
    const result = await new Validator().validate(document as Parameters<Validator["validate"]>[0]);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const index = (await (await api("/api/v1")).json()) as { openapi_url: string };
    expect(index.openapi_url).toBe(`${base}/api/v1/openapi.json`);
    expect(await (await fetch(`${base}/developers/api`)).text()).toContain(`href="${base}/api/v1/openapi.json"`);
  });
});
