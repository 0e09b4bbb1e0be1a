import { deprecations as liveDeprecations, type Deprecation } from "../api/deprecations.ts";
import { openApiDocument } from "../api/openapi.ts";
import { problemAnchor, problems, type ProblemCode } from "../api/problems.ts";
import { openApiPath } from "../api/routes.ts";
import { policyField } from "../limits/headers.ts";
import { policies, type PolicyName, type QuotaPolicy } from "../limits/policies.ts";
import { caseStudyResourceSchema } from "../resources/case-studies.ts";
import { catalogIds, resourceCatalog } from "../resources/catalog.ts";
import { apiIndexSchema } from "../resources/index.ts";
import { fieldDocs } from "./schema-fields.ts";
import type { Site } from "./model.ts";
import { absolute, caseStudyResourcePath, pagePaths, resourcePaths } from "./routes.ts";

/** What the developer page says, as data, so its HTML and its Markdown twin cannot disagree. */
export function developerGuide(site: Site, deprecations: readonly Deprecation[] = liveDeprecations) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const openapi = openApiDocument(site, deprecations);
  return {
    sections: [
      { id: "reading", title: "Reading the facts" },
      { id: "resources", title: "Resources" },
      { id: "markdown", title: "Markdown for every page" },
      { id: "errors", title: "Errors" },
      { id: "quota", title: "Quota" },
      { id: "versioning", title: "Versioning" },
      { id: "reference", title: "Endpoint reference" },
      { id: "fields", title: "Fields of each resource" },
    ],
    quotas: (Object.entries(policies) as [PolicyName, QuotaPolicy][]).map(([name, p]) => ({ name, ...p, header: policyField(name) })),
    quotaExample: [
      `RateLimit-Policy: ${policyField("public-api")}`,
      `RateLimit: "public-api";r=117;t=42`,
      "RateLimit-Limit: 120",
      "RateLimit-Remaining: 117",
      "RateLimit-Reset: 42",
    ].join("\n"),
    versioning: [
      "The major version is in the path: /api/v1.",
      "Adding a resource or a field is not breaking and ships without a version change; ignore fields you do not know.",
      "Removing or renaming one is breaking and ships under a new major path; the old path keeps working.",
      "A deprecated operation answers with a Deprecation header (RFC 9745, a date such as @1767225600) and a Sunset header (RFC 8594, the removal date, at least 180 days later), and a Link to this section; it is also listed here and marked in the OpenAPI document.",
    ],
    deprecations: deprecations.map((d) => ({
      operation: `${d.method} ${d.path}`,
      deprecated: d.deprecatedAt.toISOString().slice(0, 10),
      sunset: d.sunsetAt.toISOString().slice(0, 10),
      successor: d.successor,
    })),
    openApiUrl: url(openApiPath),
    endpoints: Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { summary?: string; responses?: Record<string, unknown>; deprecated?: boolean }>)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          summary: op.summary ?? "",
          responses: Object.keys(op.responses ?? {}).join(", "),
          deprecated: op.deprecated === true,
        })),
    ),
    readExample: `curl ${url(resourcePaths.company)}`,
    indexUrl: url(resourcePaths.index),
    resources: catalogIds.map((id) => ({
      id,
      url: url(resourcePaths[id]),
      description: resourceCatalog[id].description,
      fields: fieldDocs(resourceCatalog[id].schema),
    })),
    indexFields: fieldDocs(apiIndexSchema),
    caseStudyUrl: url(caseStudyResourcePath("{id}")),
    /** What the single case study adds to an entry of the list. */
    caseStudyExtraFields: fieldDocs(caseStudyResourceSchema).filter((f) => f.path === "story"),
    markdownExample: `curl -H 'Accept: text/markdown' ${url(pagePaths.offers)}`,
    markdownIndexUrl: url("/index.md"),
    problemFields: [
      ["type", "URI of this code's entry on this page"],
      ["title", "Short summary of the code"],
      ["status", "HTTP status"],
      ["detail", "What went wrong in this request"],
      ["instance", "The requested path"],
      ["code", "Stable code; safe to branch on"],
      ["resolution", "What to do next"],
      ["documentation_url", "This page's errors section"],
    ] as const,
    problems: (Object.entries(problems) as [ProblemCode, (typeof problems)[ProblemCode]][]).map(([code, p]) => ({
      code,
      anchor: problemAnchor(code),
      ...p,
    })),
  };
}
