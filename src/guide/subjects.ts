import { guidePagePaths, type GuideSubject } from "../paths.ts";
import type { Site } from "../site/model.ts";
import { guidePages, subjectsAnchor } from "./render.ts";

/** The index's list of the subject pages: its heading, and its anchor (the one old links to the developer page land on). */
export const subjectsHeading = "Subjects";
export { subjectsAnchor };

/** One subject page as the index lists it: what it covers, and, where it has several, its sections by their anchors. */
export interface SubjectEntry {
  id: GuideSubject;
  path: string;
  title: string;
  description: string;
  /**
   * Each section of a page of several; its anchor is also the anchor of this entry's link on the index, so that a link
   * to that anchor on the index (the guide was one page once) lands on the way to it. A page of one section has its
   * section's anchor on the link to the page.
   */
  sections: { id: string; title: string; path: string }[];
  anchor?: string;
}

export function subjectEntries(site: Site): SubjectEntry[] {
  return guidePages(site).flatMap((p) => {
    if (p.id === "index") return [];
    const several = p.sections.length > 1;
    return [
      {
        id: p.id,
        path: guidePagePaths[p.id],
        title: p.page.title,
        description: p.page.description,
        sections: several ? p.sections.map((s) => ({ id: s.id, title: s.title, path: `${guidePagePaths[p.id]}#${s.id}` })) : [],
        anchor: several ? undefined : p.sections[0]!.id,
      },
    ];
  });
}
