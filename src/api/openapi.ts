import { z } from "zod";
import { caseStudyResourceSchema } from "../resources/case-studies.ts";
import { catalogIds, resourceCatalog } from "../resources/catalog.ts";
import { apiIndexSchema } from "../resources/index.ts";
import { pascal, readOperation } from "../resources/operations.ts";
import { perWindow, policies } from "../limits/policies.ts";

import type { Site } from "../site/model.ts";
import { deprecations as liveDeprecations, findDeprecation, minimumNoticeDays, type Deprecation } from "./deprecations.ts";
import { problemAnchor, problems, type ProblemCode } from "./problems.ts";
import { offersResource } from "../resources/offers.ts";
import { problemSchemaRef, writeComponents, writePaths } from "./openapi-writes.ts";
import { bookingComponents, bookingPaths } from "./openapi-booking.ts";
import { schemaObject } from "./schema-object.ts";
import { contentSignalValue, contentUsageValue } from "../discovery/policy.ts";
import { guideUrl, pagePaths, resourcePaths, openApiPath } from "../paths.ts";

const ref = (kind: "schemas" | "responses" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });

const quotaHeaders = {
  "RateLimit-Policy": ref("headers", "RateLimit-Policy"),
  RateLimit: ref("headers", "RateLimit"),
  "RateLimit-Limit": ref("headers", "RateLimit-Limit"),
  "RateLimit-Remaining": ref("headers", "RateLimit-Remaining"),
  "RateLimit-Reset": ref("headers", "RateLimit-Reset"),
};

/** The site's usage preferences, on every read as on every page (src/discovery/policy.ts). */
const usageHeaderRefs = { "Content-Signal": ref("headers", "Content-Signal"), "Content-Usage": ref("headers", "Content-Usage") };

// Loose: a problem type may add members (RFC 9457 §3.2), as the field errors and a taken time's free times do.
const problemSchema = z
  .looseObject({
    type: z.url().describe("URI of the code's entry on the developer guide's index: {base}/developers#error-<code with hyphens>."),
    title: z.string().describe("Short summary of the code."),
    status: z.number().int().describe("The HTTP status."),
    detail: z.string().describe("What went wrong in this request."),
    instance: z.string().describe("The requested path."),
    code: z.enum(Object.keys(problems) as [ProblemCode, ...ProblemCode[]]).describe("Stable code; safe to branch on."),
    resolution: z.string().describe("What to do next."),
    documentation_url: z.url().describe("The errors section of the developer guide's index."),
  })
  .describe("An RFC 9457 problem document; every error under /api is one.");

/**
 * The OpenAPI 3.1 description of the API, built from the same zod schemas, problem table, quota policies and
 * deprecation table that the code uses, so it cannot drift from what the service does.
 */
export function openApiDocument(site: Site, deprecations: readonly Deprecation[] = liveDeprecations) {
  const writes = writeComponents({ offers: offersResource(site) }, site.baseUrl);
  const base = site.baseUrl;
  const developers = `${base}${pagePaths.developers}`;
  const policy = policies["public-api"];

  const problemResponses = (codes: ProblemCode[]) =>
    Object.fromEntries(codes.map((code) => [String(problems[code].status), ref("responses", pascal(code))]));

  const quotaWords = `Counted against the quota of ${policy.quota} requests ${perWindow(policy.windowSeconds)} per client IP address (policy "public-api").`;
  const read = (path: string, operationId: string, summary: string, schemaName: string, extraCodes: ProblemCode[] = []) => {
    const deprecation = findDeprecation(deprecations, "GET", path);
    return {
      get: {
        operationId,
        summary,
        description: `Prebuilt from the site's content at each deploy; no key, token or account. HEAD answers with the same headers and no body, and If-None-Match with an earlier ETag answers 304. ${quotaWords}`,
        tags: ["Public facts"],
        security: [],
        ...(deprecation ? { deprecated: true, "x-sunset": deprecation.sunsetAt.toISOString() } : {}),
        parameters: [{ $ref: "#/components/parameters/If-None-Match" }],
        responses: {
          "200": {
            description: "The resource. HEAD answers with the same headers and no body.",
            headers: {
              ...quotaHeaders,
              ETag: ref("headers", "ETag"),
              "Cache-Control": ref("headers", "Cache-Control"),
              ...usageHeaderRefs,
            },
            content: { "application/json": { schema: ref("schemas", schemaName) } },
          },
          "304": {
            description: "Not modified: the If-None-Match tag matches.",
            headers: { ...quotaHeaders, ETag: ref("headers", "ETag"), ...usageHeaderRefs },
          },
          ...problemResponses([...extraCodes, "rate_limited", "service_unavailable"]),
        },
      },
    };
  };

  const paths: Record<string, unknown> = {
    [resourcePaths.index]: read(resourcePaths.index, readOperation("index").operationId, "Index of every resource", "ApiIndex"),
    ...Object.fromEntries(
      catalogIds.map((id) => [
        resourcePaths[id],
        read(resourcePaths[id], readOperation(id).operationId, resourceCatalog[id].description, pascal(id)),
      ]),
    ),
    [`${resourcePaths["case-studies"]}/{id}`]: {
      parameters: [
        {
          name: "id",
          in: "path",
          required: true,
          description: "A case study id from the case-studies list.",
          schema: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" },
        },
      ],
      ...read(`${resourcePaths["case-studies"]}/:id`, "getCaseStudy", "One case study in full, with its story", "CaseStudy", ["not_found"]),
    },
    [openApiPath]: {
      get: {
        operationId: "getOpenApiDocument",
        summary: "The OpenAPI description of this API (this document)",
        description: `Generated from the schemas, problem table, quota policies and deprecations the service itself runs on, so it describes what the service does. ${quotaWords}`,
        tags: ["Public facts"],
        security: [],
        responses: {
          "200": {
            description: "The OpenAPI 3.1 document.",
            headers: { ...quotaHeaders, ETag: ref("headers", "ETag"), ...usageHeaderRefs },
            content: { "application/vnd.oai.openapi+json;version=3.1": { schema: { type: "object" } } },
          },
          "304": { description: "Not modified: the If-None-Match tag matches.", headers: { ...quotaHeaders, ...usageHeaderRefs } },
          ...problemResponses(["rate_limited", "service_unavailable"]),
        },
      },
    },
  };

  const allPaths: Record<string, unknown> = { ...paths, ...writePaths(quotaHeaders), ...bookingPaths(quotaHeaders) };
  // A problem response component exists only where an operation refers to it (linters flag unused components).
  const referenced = (Object.keys(problems) as ProblemCode[]).filter((code) =>
    JSON.stringify(allPaths).includes(`"#/components/responses/${pascal(code)}"`),
  );

  return {
    openapi: "3.1.1",
    info: {
      title: `${site.company.name} public API`,
      version: "1.0.0",
      summary: `Public facts about ${site.company.name}, and project briefs.`,
      description: [
        `Public facts about ${site.company.name} as JSON. Reads need no key and no account.`,
        `Quota: ${policy.quota} requests ${perWindow(policy.windowSeconds)} per client IP address for everything under /api, with a token or without (policy "public-api"), reported on every response with RateLimit-Policy and RateLimit (and RateLimit-Limit, -Remaining, -Reset); over it, 429 with Retry-After.`,
        `Grants: every access token names its grant (the \`grant_id\` claim), one person's approval of a client or one client_credentials client. The brief quota (policy "briefs-per-grant"), Idempotency-Keys and repeated briefs are the grant's own, so the people who use one hosted client are counted and kept apart. The token endpoint counts a code redemption against its grant and client_credentials against the client (policy "oauth-token"); the consent screen, registration and metadata document fetches count the client IP. Every policy and what it counts by is on the developer guide's API page.`,
        "Every error is an RFC 9457 application/problem+json document with a stable `code`.",
        `Versioning: the major version is in the path. Adding a resource or a field is not breaking; removing or renaming one ships under a new major path while the old one keeps working. A deprecated operation answers with Deprecation (RFC 9745) and Sunset (RFC 8594) headers at least ${minimumNoticeDays} days ahead. ${deprecations.length === 0 ? "Nothing under /api/v1 is deprecated." : "Deprecated operations are marked `deprecated`, with their sunset in `x-sunset`."}`,
      ].join("\n\n"),
      contact: { name: site.company.name, email: site.contact.email, url: developers },
    },
    servers: [{ url: base }],
    externalDocs: { description: "The developer guide's API page", url: guideUrl(base, "api") },
    tags: [
      { name: "Public facts", description: "Read resources, prebuilt from the site's content." },
      { name: "Briefs", description: "The one write: a project brief that becomes a real lead." },
      { name: "Intro call", description: "Free times for the studio's intro call, and booking one for the person an agent acts for." },
      { name: "OAuth", description: "Self-serve, anonymous clients and tokens for filing briefs." },
    ],
    paths: allPaths,
    components: {
      schemas: {
        Problem: schemaObject(problemSchema),
        ApiIndex: schemaObject(apiIndexSchema),
        ...Object.fromEntries(catalogIds.map((id) => [pascal(id), schemaObject(resourceCatalog[id].schema)])),
        CaseStudy: schemaObject(caseStudyResourceSchema),
        ...writes.schemas,
        ...bookingComponents(),
      },
      securitySchemes: writes.securitySchemes,
      parameters: {
        "If-None-Match": {
          name: "If-None-Match",
          in: "header",
          required: false,
          description: "An ETag from an earlier response; a match answers 304.",
          schema: { type: "string" },
        },
      },
      headers: {
        "RateLimit-Policy": {
          description: `The quota: "public-api";q=${policy.quota};w=${policy.windowSeconds}.`,
          schema: { type: "string" },
        },
        RateLimit: { description: 'The quota left: "public-api";r=<remaining>;t=<seconds until reset>.', schema: { type: "string" } },
        "RateLimit-Limit": { description: "Requests per window (older form).", schema: { type: "integer" } },
        "RateLimit-Remaining": { description: "Requests left in this window (older form).", schema: { type: "integer" } },
        "RateLimit-Reset": { description: "Seconds until the window resets (older form).", schema: { type: "integer" } },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
        ETag: { description: "A strong validator of the representation.", schema: { type: "string" } },
        "Cache-Control": { description: "How long the response may be reused.", schema: { type: "string" } },
        "Content-Signal": {
          description: `How the content may be used, in Content Signals (contentsignals.org): ${contentSignalValue}.`,
          schema: { type: "string", const: contentSignalValue },
        },
        "Content-Usage": {
          description: `The same preferences in the IETF aipref vocabulary (draft-ietf-aipref-attach), which has no term for AI input: ${contentUsageValue}.`,
          schema: { type: "string", const: contentUsageValue },
        },
      },
      responses: Object.fromEntries(
        referenced.map((code) => [
          pascal(code),
          {
            description: `\`${code}\`: ${problems[code].condition} See ${developers}#${problemAnchor(code)}.`,
            headers: {
              ...quotaHeaders,
              ...(problems[code].retryAfter ? { "Retry-After": ref("headers", "Retry-After") } : {}),
            },
            content: {
              "application/problem+json": { schema: problemSchemaRef([code]) },
            },
          },
        ]),
      ),
    },
  };
}
