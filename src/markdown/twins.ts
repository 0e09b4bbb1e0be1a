import type { Site } from "../site/model.ts";

import { contactMarkdown } from "./contact.ts";
import { developersMarkdown, guidePageMarkdown } from "./developers.ts";
import { homeMarkdown } from "./home.ts";
import { notFoundMarkdown } from "./not-found.ts";
import { offersMarkdown } from "./offers.ts";
import { servicesMarkdown } from "./services.ts";
import { caseStudyMarkdown, workMarkdown } from "./work.ts";
import { caseStudyPath, guidePagePaths, guideSubjects, markdownPath, notFoundPath, pagePaths } from "../paths.ts";

export interface Twin {
  /** The page's URL path. */
  path: string;
  /** Where the Markdown twin is published. */
  markdownPath: string;
  markdown: string;
}

/** Every page's Markdown twin, 404 page included. */
export function twins(site: Site): Twin[] {
  const pages: [string, string][] = [
    [pagePaths.home, homeMarkdown(site)],
    [pagePaths.services, servicesMarkdown(site)],
    [pagePaths.offers, offersMarkdown(site)],
    [pagePaths.work, workMarkdown(site)],
    ...site.caseStudies.map((s): [string, string] => [caseStudyPath(s.id), caseStudyMarkdown(site, s)]),
    [pagePaths.contact, contactMarkdown(site)],
    [pagePaths.developers, developersMarkdown(site)],
    ...guideSubjects.map((id): [string, string] => [guidePagePaths[id], guidePageMarkdown(site, id)]),
    [notFoundPath, notFoundMarkdown(site)],
  ];
  return pages.map(([path, markdown]) => ({ path, markdownPath: markdownPath(path), markdown }));
}
