import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import type { Deprecation } from "../../src/api/deprecations.ts";
import { openApiDocument } from "../../src/api/openapi.ts";
import { problems } from "../../src/api/problems.ts";
import { guidePageMarkdown } from "../../src/markdown/developers.ts";
import { apiIndex } from "../../src/resources/index.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";
import { openApiResponses } from "../support/openapi-ajv.ts";

const site = buildSite(await loadContentDir("content"), "https://studio.example");
const validate = (doc: unknown) => new Validator().validate(doc as Parameters<Validator["validate"]>[0]);

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 and describes every read, every problem code and the quota headers", async () => {
    const doc = openApiDocument(site);
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1",
        "/api/v1/company",
        "/api/v1/offers",
        "/api/v1/case-studies",
        "/api/v1/case-studies/{id}",
        "/api/v1/pages",
        "/api/v1/contact",
      ]),
    );
    for (const code of Object.keys(problems)) expect(JSON.stringify(doc.components.schemas.Problem)).toContain(`"${code}"`);
    // Only the problem responses an operation refers to are components.
    for (const name of Object.keys(doc.components.responses))
      expect(JSON.stringify(doc.paths)).toContain(`"#/components/responses/${name}"`);
    expect(doc.components.headers).toHaveProperty("RateLimit-Policy");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/briefs", "/oauth/register", "/oauth/token", "/oauth/authorize"]),
    );
    expect(doc.components.securitySchemes.oauth2.flows).toHaveProperty("clientCredentials");
    const oauthPaths = doc.paths as Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    expect(oauthPaths["/oauth/token"]!.post!.responses["429"]!.description).toContain('policy "oauth-token"');
    expect(oauthPaths["/oauth/authorize"]!.get!.responses["429"]!.description).toContain('per client IP (policy "oauth")');
    expect(oauthPaths["/oauth/register"]!.post!.responses["429"]!.description).toContain("more than 10 registrations");
    expect(oauthPaths["/oauth/authorize"]!.get!.responses["429"]!.description).toContain('policy "oauth-client-metadata"');
    // The consent screen's GET never redirects: only the person's decision (the form's POST) goes back to the client.
    expect(Object.keys(oauthPaths["/oauth/authorize"]!.get!.responses)).toEqual(["200", "400", "429"]);
    const components = doc.components.responses as Record<string, unknown>;
    const briefResponses = (doc.paths as Record<string, { post: { responses: Record<string, { $ref?: string }> } }>)["/api/v1/briefs"]!.post
      .responses;
    const responses = JSON.stringify(Object.values(briefResponses).map((r) => (r.$ref ? components[r.$ref.split("/").pop()!] : r)));
    for (const code of [
      "invalid_json",
      "invalid_token",
      "insufficient_scope",
      "invalid_brief",
      "payload_too_large",
      "brief_quota_exceeded",
    ])
      expect(responses).toContain(code);
    expect(JSON.stringify(doc)).not.toContain('"deprecated":true');
  });

  it("has every operation the index lists, at the index's pointer, with its operationId and security", () => {
    const doc = openApiDocument(site) as unknown as Record<string, unknown>;
    const operations = apiIndex(site).resources.flatMap((r) => r.operations.map((o) => ({ ...o, url: r.url })));
    expect(operations.map((o) => o.operation_id)).toEqual(
      expect.arrayContaining(["getCompany", "fileBrief", "bookIntroCall", "cancelBooking"]),
    );
    for (const operation of operations) {
      const pointer = new URL(operation.openapi_url).hash.slice(1);
      const [, , path, method] = pointer.split("/").map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
      // A resource's own operations, at its URL or below it (a booking's, under /bookings).
      expect(`https://studio.example${path}/`.startsWith(`${operation.url}/`), pointer).toBe(true);
      const described = (doc.paths as Record<string, Record<string, { operationId: string; security: unknown }>>)[path!]?.[method!];
      expect(described?.operationId, pointer).toBe(operation.operation_id);
      expect(described?.security).toEqual(operation.scopes.length === 0 ? [] : [{ oauth2: operation.scopes }]);
    }
  });

  it("describes the index it links into: every openapi_url a URI, the braces of {id} percent-encoded (ajv, formats on)", () => {
    const doc = openApiDocument(site) as unknown as Parameters<typeof openApiResponses>[0];
    const index = apiIndex(site);
    expect(openApiResponses(doc).problems("/api/v1", index)).toEqual([]);
    const urls = index.resources.flatMap((r) => r.operations.map((o) => o.openapi_url));
    expect(urls).toContain("https://studio.example/api/v1/openapi.json#/paths/~1api~1v1~1bookings~1%7Bid%7D/get");
    for (const url of urls) expect(new URL(url).href, url).toBe(url);
  });

  it("marks a deprecated operation, as does the developer page (a fixture)", async () => {
    const fixture: Deprecation = {
      method: "GET",
      path: "/api/v1/offers",
      deprecatedAt: new Date("2026-01-01T00:00:00Z"),
      sunsetAt: new Date("2026-09-01T00:00:00Z"),
      successor: "https://studio.example/api/v2/offers",
    };
    const doc = openApiDocument(site, [fixture]);
    expect((await validate(doc)).valid).toBe(true);
    const get = ((doc.paths as Record<string, unknown>)["/api/v1/offers"] as { get: { deprecated?: boolean; "x-sunset"?: string } }).get;
    expect(get.deprecated).toBe(true);
    expect(get["x-sunset"]).toBe("2026-09-01T00:00:00.000Z");
    const page = guidePageMarkdown(site, "api", [fixture]);
    expect(page).toContain("| `GET /api/v1/offers` | 2026-01-01 | 2026-09-01 |");
    expect(page).toContain("Marketing-site sizes (priced on an intro call) and the monthly care plan, in USD. (deprecated)");
    expect(guidePageMarkdown(site, "api")).toContain("Nothing under `/api/v1` is deprecated.");
  });
});
