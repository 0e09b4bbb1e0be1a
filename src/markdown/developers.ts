import type { Deprecation } from "../api/deprecations.ts";
import { guidePages, type GuidePage } from "../guide/render.ts";
import { subjectEntries, subjectsHeading } from "../guide/subjects.ts";
import { absolute, type GuideSubject } from "../paths.ts";
import type { Site } from "../site/model.ts";
import { opening } from "./common.ts";
import { bullets, document, heading, link, text } from "./syntax.ts";

const sectionsOf = (page: GuidePage) => page.sections.flatMap((section) => [heading(2, section.title), section.markdown]);

/** The developer guide's index twin: its introduction, the subject pages with what each covers, then its own sections. */
export function developersMarkdown(site: Site, deprecations?: readonly Deprecation[]): string {
  const index = guidePages(site, deprecations).find((p) => p.id === "index")!;
  const url = (path: string) => absolute(site.baseUrl, path);
  return document(
    ...opening(site, index.page),
    heading(2, subjectsHeading),
    bullets(
      subjectEntries(site).map(
        (s) =>
          `${link(s.title, url(s.path))}: ${text(s.description)}${
            s.sections.length ? ` Sections: ${s.sections.map((section) => link(section.title, url(section.path))).join(", ")}.` : ""
          }`,
      ),
    ),
    ...sectionsOf(index),
  );
}

/** A subject page's twin: its introduction, then each of its sections with their generated parts as Markdown. */
export function guidePageMarkdown(site: Site, subject: GuideSubject, deprecations?: readonly Deprecation[]): string {
  const page = guidePages(site, deprecations).find((p) => p.id === subject)!;
  return document(...opening(site, page.page), ...sectionsOf(page));
}
