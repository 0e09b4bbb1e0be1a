import { describe, expect, it } from "vitest";
import { expectQuotaHeaders } from "../support/api-quota.ts";
import { json } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";
import { openApiResponses } from "../support/openapi-ajv.ts";

/**
 * The /api edge gateway in-process, built as functions/edge/api.ts builds it, with the reads behind it: the quota run
 * to its end from a client address of its own, in a window that starts with the test; the index and every answer, read
 * or refusal, against the OpenAPI document it links. tests/runtime/api.test.ts covers what the platform adds end to end.
 */
const { d, clock } = fileDeployment("local", { clock: true });
type Document = Parameters<typeof openApiResponses>[0];

describe("the quota: 120 requests per 60 seconds per client IP", () => {
  it("counts down on every response and refuses the 121st with rate_limited and Retry-After", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    for (let i = 1; i <= 120; i++) {
      const res = await d.api(i % 2 ? "/api/v1/company" : "/api/v1/nope", {}, ip);
      expect(res.status).toBe(i % 2 ? 200 : 404);
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"public-api";r=${120 - i};t=\\d+$`));
      await res.body?.cancel();
    }
    const refused = await d.api("/api/v1/company", {}, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expectQuotaHeaders(refused);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(refused.headers.get("ratelimit-reset")));
    expect(((await refused.json()) as { code: string }).code).toBe("rate_limited");
  });
});

describe("the index", () => {
  type Operation = { method: string; url: string; operation_id: string; openapi_url: string; scopes: string[] };
  type Entry = { id: string; url: string; methods: string[]; operations: Operation[] };

  it("lists the brief, with its method, URL, the scope it needs and its OpenAPI operation", async () => {
    const index = (await (await d.api("/api/v1")).json()) as { resources: Entry[] };
    expect(index.resources.find((r) => r.id === "briefs")).toEqual({
      id: "briefs",
      url: `${d.baseUrl}/api/v1/briefs`,
      methods: ["POST"],
      description: expect.any(String),
      operations: [
        {
          method: "POST",
          url: `${d.baseUrl}/api/v1/briefs`,
          operation_id: "fileBrief",
          scopes: ["svc:brief"],
          openapi_url: `${d.baseUrl}/api/v1/openapi.json#/paths/~1api~1v1~1briefs/post`,
        },
      ],
    });
  });

  it("points each operation at the OpenAPI document, where it has that operationId, method, path and security", async () => {
    const index = (await (await d.api("/api/v1")).json()) as { resources: Entry[] };
    const document = (await (await d.api("/api/v1/openapi.json")).json()) as Record<string, unknown>;
    for (const resource of index.resources) {
      // The resource's own URL takes its methods; an operation below it (a booking's) has its own URL template.
      expect([...new Set(resource.operations.filter((o) => o.url === resource.url).map((o) => o.method))]).toEqual(resource.methods);
      for (const operation of resource.operations) {
        const [documentUrl, pointer = ""] = operation.openapi_url.split("#");
        expect(documentUrl).toBe(`${d.baseUrl}/api/v1/openapi.json`);
        const [, , path, method] = pointer.split("/").map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
        expect(`${d.baseUrl}${path}`, operation.openapi_url).toBe(operation.url);
        expect(operation.url.startsWith(resource.url)).toBe(true);
        expect(method).toBe(operation.method.toLowerCase());
        const described = (document.paths as Record<string, Record<string, { operationId: string; security: unknown }>>)[path!]![method!]!;
        expect(described.operationId).toBe(operation.operation_id);
        expect(described.security).toEqual(operation.scopes.length === 0 ? [] : [{ oauth2: operation.scopes }]);
      }
    }
  });
});

describe("every answer against the OpenAPI document", () => {
  it("answers each GET the index lists, and each case study, valid against its response schema (ajv, formats on)", async () => {
    const responses = openApiResponses((await (await d.api("/api/v1/openapi.json")).json()) as Document);
    const index = (await (await d.api("/api/v1")).json()) as { resources: { operations: { method: string; url: string }[] }[] };
    const reads = index.resources.flatMap((r) => r.operations).filter((o) => o.method === "GET" && !o.url.includes("{"));
    const { case_studies } = (await (await d.api("/api/v1/case-studies")).json()) as { case_studies: { url: string }[] };
    const urls = [`${d.baseUrl}/api/v1`, ...reads.map((o) => o.url), ...case_studies.map((c) => c.url), `${d.baseUrl}/api/v1/openapi.json`];
    expect(urls.length).toBeGreaterThanOrEqual(10);
    for (const url of new Set(urls)) {
      const res = await d.api(new URL(url).pathname);
      expect(res.status, url).toBe(200);
      const problems = responses.problems(new URL(url).pathname, await res.json());
      expect(problems, `the OpenAPI document describes no JSON answer to GET ${url}`).toBeDefined();
      expect(problems, url).toEqual([]);
    }
  });

  it("answers a refused field, a taken time and a public client's registration valid against their schemas", async () => {
    const responses = openApiResponses((await (await d.api("/api/v1/openapi.json")).json()) as Document);
    const token = await d.token("svc:brief");
    const post = (path: string, body: object) => d.api(path, json(body, { authorization: `Bearer ${token}` }));
    const valid = async (res: Response, path: string, method = "get") => {
      const problems = responses.problems(path, await res.json(), String(res.status), method);
      expect(problems, `no JSON schema for ${method} ${path} ${res.status}`).toBeDefined();
      expect(problems, `${method} ${path} ${res.status}`).toEqual([]);
    };

    const query = await d.api("/api/v1/free-times?time_zone=Mars/Phobos");
    expect(query.status).toBe(400);
    await valid(query, "/api/v1/free-times");
    const brief = await post("/api/v1/briefs", { full_name: "" });
    expect(brief.status).toBe(422);
    await valid(brief, "/api/v1/briefs", "post");
    const { times } = (await (await d.api("/api/v1/free-times?time_zone=UTC")).json()) as { times: { start: string }[] };
    const offSlot = new Date(Date.parse(times[0]!.start) + 60_000).toISOString();
    const taken = await post("/api/v1/bookings", {
      full_name: "Ada Lovelace",
      work_email: "ada@engines.example",
      start: offSlot,
      time_zone: "UTC",
    });
    expect(taken.status).toBe(409);
    await valid(taken, "/api/v1/bookings", "post");
    const registered = await d.oauth(
      "/oauth/register",
      json({ client_name: "Public", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" }),
    );
    expect(registered.status).toBe(201);
    await valid(registered, "/oauth/register", "post");
  });
});
