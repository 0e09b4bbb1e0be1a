import { deprecations as liveDeprecations, type Deprecation } from "../api/deprecations.ts";
import { problemAnchor, problems } from "../api/problems.ts";
import { absolutizeLinks } from "../markdown/common.ts";
import { mcpErrorsAnchor } from "../mcp/errors.ts";
import { absolute, pagePaths } from "../paths.ts";
import { ContentError, type Site, type SiteGuideSection } from "../site/model.ts";
import type { Block } from "./block.ts";
import { sectionHtml, valuesIn } from "./html.ts";
import { checkKnown, findPlaceholders, splice, standsAlone, type Placeholder } from "./placeholders.ts";
import { guideBlocks } from "./registry.ts";
import { guideValues } from "./values.ts";

/** One section of the developer guide, from one Markdown source: its twin's Markdown and its page's HTML. */
export interface RenderedSection {
  id: string;
  title: string;
  layout: SiteGuideSection["layout"];
  markdown: string;
  html: string;
}

/** Anchors other surfaces link to, and who links to each: a section or heading may not drop one. */
export const linkedAnchors: Record<string, string> = {
  oauth: "the OAuth metadata's service_documentation",
  briefs: "the REST SKILL.md",
  mcp: "the API index and the MCP SKILL.md",
  [mcpErrorsAnchor]: "the documentation_url of every MCP JSON-RPC error",
  a2a: "the agent card and the A2A SKILL.md",
  discovery: "the AI catalog's host documentationUrl",
  errors: "the documentation_url of every problem document",
  versioning: "the Link header of a deprecated operation",
  ...Object.fromEntries(Object.keys(problems).map((code) => [problemAnchor(code), `the type of every ${code} problem document`])),
};

/** Renders every section, then checks the page as a whole: each in-page link lands, no anchor is lost or doubled. */
export function renderGuide(site: Site, deprecations: readonly Deprecation[] = liveDeprecations): RenderedSection[] {
  const cached = deprecations === liveDeprecations ? rendered.get(site) : undefined;
  if (cached) return cached;
  const values: Record<string, Record<string, string>> = guideValues(site);
  const blocks = guideBlocks(site, deprecations);
  const built = new Map<string, Block>();
  const pageUrl = absolute(site.baseUrl, pagePaths.developers);

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
      title: section.title,
      layout: section.layout,
      // The twin lives at another URL: its links, in-page ones included, are absolute.
      markdown: absolutizeLinks(markdown, site.baseUrl).replace(/\]\((#[^)\s]*)\)/g, (_, anchor: string) => `](${pageUrl}${anchor})`),
      html,
    };
  });

  checkAnchors(site, sections);
  if (deprecations === liveDeprecations) rendered.set(site, sections);
  return sections;
}

const rendered = new WeakMap<Site, RenderedSection[]>();

function checkAnchors(site: Site, sections: RenderedSection[]) {
  const files = new Map(site.developerGuide.map((s) => [s.id, s.file]));
  const ids = sections.flatMap((s) => [s.id, ...[...s.html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!)]);
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) {
      const section = sections.find((s) => s.id === id || s.html.includes(` id="${id}"`))!;
      throw new ContentError(
        files.get(section.id)!,
        `#${id}`,
        "is the anchor of two places on the page (anchors come from headings: rename one)",
      );
    }
    seen.add(id);
  }
  for (const section of sections) {
    for (const [, target] of section.html.matchAll(/ href="#([^"]*)"/g)) {
      if (!seen.has(target!)) throw new ContentError(files.get(section.id)!, `#${target}`, "links to an anchor the page does not have");
    }
  }
  for (const [anchor, linkedFrom] of Object.entries(linkedAnchors)) {
    if (!seen.has(anchor)) throw new ContentError("content/developers/", `#${anchor}`, `is missing: ${linkedFrom} links to it`);
  }
}
