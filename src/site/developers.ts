import { problemAnchor, problems, type ProblemCode } from "../api/problems.ts";
import { caseStudyResourceSchema } from "../resources/case-studies.ts";
import { catalogIds, resourceCatalog } from "../resources/catalog.ts";
import { apiIndexSchema } from "../resources/index.ts";
import { fieldDocs } from "./schema-fields.ts";
import type { Site } from "./model.ts";
import { absolute, caseStudyResourcePath, pagePaths, resourcePaths } from "./routes.ts";

/** What the developer page says, as data, so its HTML and its Markdown twin cannot disagree. */
export function developerGuide(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  return {
    sections: [
      { id: "reading", title: "Reading the facts" },
      { id: "resources", title: "Resources" },
      { id: "markdown", title: "Markdown for every page" },
      { id: "errors", title: "Errors" },
      { id: "fields", title: "Fields of each resource" },
    ],
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
