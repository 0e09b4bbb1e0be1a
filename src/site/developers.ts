import { problemAnchor, problems, type ProblemCode } from "../api/problems.ts";
import { resourceDescriptions } from "../resources/index.ts";
import type { Site } from "./model.ts";
import { absolute, pagePaths, resourcePaths } from "./routes.ts";

/** What the developer page says, as data, so its HTML and its Markdown twin cannot disagree. */
export function developerGuide(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  return {
    sections: [
      { id: "reading", title: "Reading the facts" },
      { id: "resources", title: "Resources" },
      { id: "markdown", title: "Markdown for every page" },
      { id: "errors", title: "Errors" },
    ],
    readExample: `curl ${url(resourcePaths.company)}`,
    indexUrl: url(resourcePaths.index),
    resources: (Object.keys(resourceDescriptions) as (keyof typeof resourceDescriptions)[]).map((id) => ({
      id,
      url: url(resourcePaths[id]),
      description: resourceDescriptions[id],
    })),
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
