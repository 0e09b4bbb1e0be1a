import { z } from "zod";

import type { Site } from "../site/model.ts";
import { isoDate, isoDateSchema } from "./common.ts";
import { absolute, caseStudyPath, guidePagePaths, guideSubjects, markdownPath, pagePaths, type PageId } from "../paths.ts";

export const indexablePageSchema = z.object({
  id: z.string().describe("Stable id: a page id, `developers/<subject>` for a page of the developer guide, or `case-study/<id>`."),
  kind: z.enum(["page", "case_study"]).describe("A page of the site, or a case study."),
  title: z.string().describe("The page title."),
  description: z.string().describe("The page's meta description."),
  url: z.url().describe("The page (HTML)."),
  markdown_url: z.url().describe("The page's Markdown twin."),
  updated: isoDateSchema.describe("When the page content last changed."),
});

export const pagesResourceSchema = z
  .object({ pages: z.array(indexablePageSchema).describe("Indexable pages, in site order.") })
  .describe("Every indexable page of the site, with its Markdown twin. The sitemap lists exactly these.");

export type IndexablePage = z.infer<typeof indexablePageSchema>;

/** The pages resource's id of a page of the developer guide below its index: `developers/mcp`. */
export const guidePageResourceId = (subject: string) => `developers/${subject}`;

/** The indexable pages, in site order: the fixed pages, the developer guide's subject pages, then each case study. */
export function indexablePages(site: Site): IndexablePage[] {
  const entry = (id: string, kind: IndexablePage["kind"], path: string, title: string, description: string, updated: Date) => ({
    id,
    kind,
    title,
    description,
    url: absolute(site.baseUrl, path),
    markdown_url: absolute(site.baseUrl, markdownPath(path)),
    updated: isoDate(updated),
  });
  return [
    ...(Object.entries(pagePaths) as [PageId, string][]).map(([id, path]) => {
      const page = site.pages[id];
      return entry(id, "page", path, page.title, page.description, page.updated);
    }),
    ...guideSubjects.map((id) => {
      const page = site.guidePages[id];
      return entry(guidePageResourceId(id), "page", guidePagePaths[id], page.title, page.description, page.updated);
    }),
    ...site.caseStudies.map((s) => entry(`case-study/${s.id}`, "case_study", caseStudyPath(s.id), s.title, s.summary, s.published)),
  ];
}

export const pagesResource = (site: Site) => ({ pages: indexablePages(site) });
