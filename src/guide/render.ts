import { deprecations as liveDeprecations, type Deprecation } from "../api/deprecations.ts";
import { problemAnchor, problems } from "../api/problems.ts";
import { absolutizeLinks } from "../markdown/common.ts";
import { mcpErrorsAnchor } from "../mcp/errors.ts";
import { guidePagePaths, guideUrl, type GuidePageId } from "../paths.ts";
import { ContentError, type Site, type SiteGuideSection, type SitePage } from "../site/model.ts";
import type { Block } from "./block.ts";
import { sectionHtml, valuesIn } from "./html.ts";
import { checkKnown, findPlaceholders, splice, standsAlone, type Placeholder } from "./placeholders.ts";
import { guideBlocks } from "./registry.ts";
import { guideValues } from "./values.ts";

/** One section of the developer guide, from one Markdown source: its twin's Markdown and its page's HTML. */
export interface RenderedSection {
  id: string;
  /** The guide's page it is on. */
  page: GuidePageId;
  title: string;
  layout: SiteGuideSection["layout"];
  markdown: string;
  html: string;
  /** Its `###` headings, with their anchors and their HTML, for a page's table of contents. */
  headings: { id: string; html: string }[];
}

/** One page of the developer guide: its index or a subject's, with its content page and its sections in order. */
export interface GuidePage {
  id: GuidePageId;
  path: string;
  page: SitePage;
  sections: RenderedSection[];
}

/** The anchor of the index's list of the subject pages. */
export const subjectsAnchor = "subjects";

/** Anchors other surfaces link to, the page each must be on, and who links to it: a section or heading may not drop or move one. */
export const linkedAnchors: Record<string, { page: GuidePageId; linkedFrom: string }> = {
  oauth: { page: "oauth", linkedFrom: "the OAuth metadata's service_documentation" },
  briefs: { page: "briefs", linkedFrom: "the REST SKILL.md" },
  booking: { page: "booking", linkedFrom: "the contact resource and every SKILL.md" },
  mcp: { page: "mcp", linkedFrom: "the API index, the API catalog, the server card and the MCP SKILL.md" },
  [mcpErrorsAnchor]: { page: "mcp", linkedFrom: "the documentation_url of every MCP JSON-RPC error" },
  a2a: { page: "a2a", linkedFrom: "the agent card, the API catalog and the A2A SKILL.md" },
  discovery: { page: "index", linkedFrom: "the AI catalog's host documentationUrl" },
  errors: { page: "index", linkedFrom: "the documentation_url of every problem document" },
  versioning: { page: "api", linkedFrom: "the Link header of a deprecated operation" },
  ...Object.fromEntries(
    Object.keys(problems).map((code) => [problemAnchor(code), { page: "index", linkedFrom: `the type of every ${code} problem document` }]),
  ),
};

/**
 * Renders every section, then checks the guide as a whole: each anchor is the anchor of one place in the guide, each
 * link to an anchor lands, on whichever page holds it, and no anchor other surfaces link to is lost or moved.
 */
export function renderGuide(site: Site, deprecations: readonly Deprecation[] = liveDeprecations): RenderedSection[] {
  const cached = deprecations === liveDeprecations ? rendered.get(site) : undefined;
  if (cached) return cached;
  const values: Record<string, Record<string, string>> = guideValues(site);
  const blocks = guideBlocks(site, deprecations);
  const built = new Map<string, Block>();

  const sections = site.developerGuide.map((section): RenderedSection => {
    const { body, file } = section;
    const placeholders = findPlaceholders(body, file);
    const blockOf = (p: Placeholder) => {
      const key = `{{${p.kind}:${p.name}}}`;
      if (!built.has(key)) built.set(key, blocks[p.kind]![p.name]!());
      return built.get(key)!;
    };
    const { inCode, write } = valuesIn(body);
    const isBlock = (p: Placeholder) => Object.hasOwn(blocks, p.kind);
    const kinds = `values are ${Object.keys(values).join(", ")}; blocks are ${Object.keys(blocks).join(", ")}`;
    for (const p of placeholders) {
      checkKnown(p, file, { ...blocks, ...values }, kinds);
      if (isBlock(p) && (inCode(p) || !standsAlone(body, p))) {
        throw new ContentError(
          file,
          p.source,
          "a generated block stands on a line of its own, unindented, with a blank line before and after it",
        );
      }
    }
    const value = (p: Placeholder) => write(values[p.kind]![p.name]!, p);

    const markdown = splice(body, placeholders, (p) => (isBlock(p) ? blockOf(p).markdown : value(p))).trim();
    const markers = new Map(placeholders.filter(isBlock).map((p) => [`{{${p.kind}:${p.name}}}`, blockOf(p)]));
    const { html, problems } = sectionHtml(
      splice(body, placeholders, (p) => (isBlock(p) ? `{{${p.kind}:${p.name}}}` : value(p))),
      { sectionId: section.id, wide: section.layout === "wide", blocks: markers },
    );
    const [problem] = problems;
    if (problem) throw new ContentError(file, problem.field, problem.problem);
    return {
      id: section.id,
      page: section.page,
      title: section.title,
      layout: section.layout,
      markdown,
      html,
      headings: [...html.matchAll(/<h3 id="([^"]+)"[^>]*>([\s\S]*?)<\/h3>/g)].map((m) => ({ id: m[1]!, html: m[2]! })),
    };
  });

  const pageOf = anchorPages(site, sections);
  checkLinkedAnchors(pageOf);
  const linked = sections.map((section) => {
    const file = site.developerGuide.find((s) => s.id === section.id)!.file;
    // Where a link to an anchor goes from this section: the anchor on its page, or, for the first section of a subject
    // page, the page itself; a link within the page keeps its anchor.
    const target = (anchor: string) => {
      const page = pageOf.get(anchor);
      if (!page) throw new ContentError(file, `#${anchor}`, "links to an anchor the guide does not have");
      const opensPage = page !== "index" && page !== section.page && sections.find((s) => s.page === page)!.id === anchor;
      return { page, anchor: opensPage ? undefined : anchor };
    };
    return {
      ...section,
      // The twin lives at another URL: its links, in-page ones included, are absolute.
      markdown: absolutizeLinks(section.markdown, site.baseUrl).replace(/\]\(#([^)\s]*)\)/g, (_, anchor: string) => {
        const to = target(anchor);
        return `](${guideUrl(site.baseUrl, to.page, to.anchor)})`;
      }),
      html: section.html.replace(/ href="#([^"]*)"/g, (_, anchor: string) => {
        const to = target(anchor);
        return ` href="${to.page === section.page ? "" : guidePagePaths[to.page]}${to.anchor ? `#${to.anchor}` : ""}"`;
      }),
    };
  });

  if (deprecations === liveDeprecations) rendered.set(site, linked);
  return linked;
}

const rendered = new WeakMap<Site, RenderedSection[]>();

/** The guide's pages, its index first, each with its sections. */
export function guidePages(site: Site, deprecations?: readonly Deprecation[]): GuidePage[] {
  const sections = renderGuide(site, deprecations);
  return (Object.keys(guidePagePaths) as GuidePageId[]).map((id) => ({
    id,
    path: guidePagePaths[id],
    page: id === "index" ? site.pages.developers : site.guidePages[id],
    sections: sections.filter((s) => s.page === id),
  }));
}

/** Every anchor of the guide and the page it is on; an anchor that two places have fails the build, naming both files. */
function anchorPages(site: Site, sections: RenderedSection[]): Map<string, GuidePageId> {
  const files = new Map(site.developerGuide.map((s) => [s.id, s.file]));
  const pageOf = new Map<string, GuidePageId>([[subjectsAnchor, "index"]]);
  const fileOf = new Map<string, string>([[subjectsAnchor, "the index's list of subjects"]]);
  for (const section of sections) {
    const file = files.get(section.id)!;
    for (const id of [section.id, ...[...section.html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!)]) {
      if (pageOf.has(id)) {
        const other = fileOf.get(id) === file ? "" : `, here and in ${fileOf.get(id)}`;
        throw new ContentError(
          file,
          `#${id}`,
          `is the anchor of two places in the guide${other} (anchors come from file names and headings: rename one)`,
        );
      }
      pageOf.set(id, section.page);
      fileOf.set(id, file);
    }
  }
  return pageOf;
}

function checkLinkedAnchors(pageOf: Map<string, GuidePageId>) {
  for (const [anchor, { page, linkedFrom }] of Object.entries(linkedAnchors)) {
    if (pageOf.get(anchor) !== page) {
      throw new ContentError(
        "content/developers/",
        `#${anchor}`,
        `is missing from ${guidePagePaths[page]}: ${linkedFrom} links to it there`,
      );
    }
  }
}
