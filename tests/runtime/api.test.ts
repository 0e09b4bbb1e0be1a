import { Validator } from "@seriousme/openapi-schema-validator";
import { Redis } from "@upstash/redis";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { problemAnchor, problems } from "../../src/api/problems.ts";
import { expectQuotaHeaders } from "../support/api-quota.ts";
import { clientCredentialsToken, discover } from "../support/oauth-client.ts";
import { openApiResponses } from "../support/openapi-ajv.ts";

/**
 * The spec's Errors, Limits and Versioning sections, over HTTP through the local runtime (netlify dev running the
 * /api edge function over the local store, which speaks the Upstash protocol). The quota's run to the 121st request is
 * in tests/doors/api.test.ts, with a client address and a window of its own.
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
  it.each(["/api/v2", "/api/v1/nope", "/api/v1/company/x", "/api", "/api/v1/company.json", "/api/v1/case-studies/no-such-study"])(
    "%s is a not_found problem with every field",
    async (path) => {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expectQuotaHeaders(res);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual([
        "code",
        "detail",
        "documentation_url",
        "instance",
        "resolution",
        "status",
        "title",
        "type",
      ]);
      expect(body).toMatchObject({
        type: `${base}/developers#error-not-found`,
        status: 404,
        code: "not_found",
        instance: path,
        documentation_url: `${base}/developers#errors`,
      });
    },
  );

  it.each([
    ["PUT", "/api/v1/company", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/v1/offers", "GET, HEAD, OPTIONS"],
    ["PATCH", "/api/v1/pages", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1/contact", "GET, HEAD, OPTIONS"],
    ["GET", "/api/v1/briefs", "POST, OPTIONS"],
  ])("%s %s is method_not_allowed with Allow: %s", async (method, path, allow) => {
    const res = await api(path, { method, body: method === "GET" ? undefined : "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expectQuotaHeaders(res);
    expect(((await res.json()) as { code: string }).code).toBe("method_not_allowed");
  });

  it("documents every code at the anchor its type URI names", async () => {
    const page = await (await fetch(`${base}/developers`)).text();
    for (const code of Object.keys(problems)) expect(page, code).toContain(`id="${problemAnchor(code)}"`);
    expect(page).toContain('id="errors"');
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

describe("the index", () => {
  type Operation = { method: string; url: string; operation_id: string; openapi_url: string; scopes: string[] };
  type Entry = { id: string; url: string; methods: string[]; operations: Operation[] };

  it("lists the brief, with its method, URL, the scope it needs and its OpenAPI operation", async () => {
    const index = (await (await api("/api/v1")).json()) as { resources: Entry[] };
    expect(index.resources.find((r) => r.id === "briefs")).toEqual({
      id: "briefs",
      url: `${base}/api/v1/briefs`,
      methods: ["POST"],
      description: expect.any(String),
      operations: [
        {
          method: "POST",
          url: `${base}/api/v1/briefs`,
          operation_id: "fileBrief",
          scopes: ["svc:brief"],
          openapi_url: `${base}/api/v1/openapi.json#/paths/~1api~1v1~1briefs/post`,
        },
      ],
    });
  });

  it("points each operation at the OpenAPI document, where it has that operationId, method, path and security", async () => {
    const index = (await (await api("/api/v1")).json()) as { resources: Entry[] };
    const document = (await (await api("/api/v1/openapi.json")).json()) as Record<string, unknown>;
    for (const resource of index.resources) {
      // The resource's own URL takes its methods; an operation below it (a booking's) has its own URL template.
      expect([...new Set(resource.operations.filter((o) => o.url === resource.url).map((o) => o.method))]).toEqual(resource.methods);
      for (const operation of resource.operations) {
        const [documentUrl, pointer = ""] = operation.openapi_url.split("#");
        expect(documentUrl).toBe(`${base}/api/v1/openapi.json`);
        const [, , path, method] = pointer.split("/").map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
        expect(`${base}${path}`, operation.openapi_url).toBe(operation.url);
        expect(operation.url.startsWith(resource.url)).toBe(true);
        expect(method).toBe(operation.method.toLowerCase());
        const described = (document.paths as Record<string, Record<string, { operationId: string; security: unknown }>>)[path!]![method!]!;
        expect(described.operationId).toBe(operation.operation_id);
        expect(described.security).toEqual(operation.scopes.length === 0 ? [] : [{ oauth2: operation.scopes }]);
      }
    }
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

describe("every read against the OpenAPI document", () => {
  it("answers each GET the index lists, and each case study, valid against its response schema (ajv, formats on)", async () => {
    const document = (await (await api("/api/v1/openapi.json")).json()) as Parameters<typeof openApiResponses>[0];
    const responses = openApiResponses(document);
    const index = (await (await api("/api/v1")).json()) as { resources: { operations: { method: string; url: string }[] }[] };
    const reads = index.resources.flatMap((r) => r.operations).filter((o) => o.method === "GET" && !o.url.includes("{"));
    const { case_studies } = (await (await api("/api/v1/case-studies")).json()) as { case_studies: { url: string }[] };
    const urls = [`${base}/api/v1`, ...reads.map((o) => o.url), ...case_studies.map((c) => c.url), `${base}/api/v1/openapi.json`];
    expect(urls.length).toBeGreaterThanOrEqual(10);
    for (const url of new Set(urls)) {
      const res = await api(new URL(url).pathname);
      expect(res.status, url).toBe(200);
      const problems = responses.problems(new URL(url).pathname, await res.json());
      expect(problems, `the OpenAPI document describes no JSON answer to GET ${url}`).toBeDefined();
      expect(problems, url).toEqual([]);
    }
  });
});

describe("every kind of answer against the OpenAPI document", () => {
  it("answers a refused field, a taken time and a public client's registration valid against their schemas", async () => {
    const document = (await (await api("/api/v1/openapi.json")).json()) as Parameters<typeof openApiResponses>[0];
    const responses = openApiResponses(document);
    const token = (await clientCredentialsToken(base, "svc:brief")).token;
    const post = (path: string, body: object, bearer?: string) =>
      api(path, {
        method: "POST",
        headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: JSON.stringify(body),
      });
    const valid = async (res: Response, path: string, method = "get") => {
      const problems = responses.problems(path, await res.json(), String(res.status), method);
      expect(problems, `no JSON schema for ${method} ${path} ${res.status}`).toBeDefined();
      expect(problems, `${method} ${path} ${res.status}`).toEqual([]);
    };

    const query = await api("/api/v1/free-times?time_zone=Mars/Phobos");
    expect(query.status).toBe(400);
    await valid(query, "/api/v1/free-times");
    const brief = await post("/api/v1/briefs", { full_name: "" }, token);
    expect(brief.status).toBe(422);
    await valid(brief, "/api/v1/briefs", "post");
    const { times } = (await (await api("/api/v1/free-times?time_zone=UTC")).json()) as { times: { start: string }[] };
    const offSlot = new Date(Date.parse(times[0]!.start) + 60_000).toISOString();
    const taken = await post(
      "/api/v1/bookings",
      { full_name: "Ada Lovelace", work_email: "ada@engines.example", start: offSlot, time_zone: "UTC" },
      token,
    );
    expect(taken.status).toBe(409);
    await valid(taken, "/api/v1/bookings", "post");
    const as = await discover(base);
    const registered = await fetch(as.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Public", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" }),
    });
    expect(registered.status).toBe(201);
    await valid(registered, "/oauth/register", "post");
  });
});
