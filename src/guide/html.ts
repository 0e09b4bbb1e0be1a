import {
  defineHastPlugin,
  defineMdastPlugin,
  markdownToHtml,
  markdownToMdast,
  type Features,
  type HastVisitorContext,
  type HastNode,
} from "satteri";
import { text } from "../markdown/syntax.ts";
import type { Block } from "./block.ts";

/**
 * The guide's Markdown as HTML, with the Markdown engine Astro itself uses (satteri), shaped like the rest of the page:
 * in a wide section prose keeps to the reading column and tables span the page; tables scroll sideways on small
 * screens and name their rows for assistive technology; headings carry anchors.
 */

const features: Features = { gfm: { footnotes: false }, frontmatter: false };

/** Where code spans and code blocks sit in the Markdown: a value placed there is written as it is, never escaped. */
export function codeRanges(markdown: string): [number, number][] {
  type Tree = { type: string; position?: { start: { offset?: number }; end: { offset?: number } }; children?: Tree[] };
  const ranges: [number, number][] = [];
  const walk = (node: Tree) => {
    if ((node.type === "code" || node.type === "inlineCode") && node.position) {
      ranges.push([node.position.start.offset ?? 0, node.position.end.offset ?? 0]);
    }
    node.children?.forEach(walk);
  };
  walk(markdownToMdast(markdown, { features }) as Tree);
  return ranges;
}

/** How a value is written at a placeholder of this Markdown: as it is in code, escaped as text everywhere else. */
export function valuesIn(markdown: string) {
  const code = codeRanges(markdown);
  const inCode = (p: { start: number; end: number }) => code.some(([start, end]) => p.start >= start && p.end <= end);
  return { inCode, write: (value: string, p: { start: number; end: number }) => (inCode(p) ? value : text(value)) };
}

/** A content body (a page's introduction, a case study's story) as HTML, as Astro renders a collection entry's Markdown. */
export const contentHtml = (markdown: string) => markdownToHtml(markdown, { features: { gfm: true, smartPunctuation: true } }).html;

/** A generated block's scrolling tables as focusable groups named by the heading (its id) they sit under. */
const withScrollRegions = (html: string, heading: string) =>
  html.replaceAll('<div class="table-scroll">', `<div class="table-scroll" role="group" tabindex="0" aria-labelledby="${heading}">`);

/** A heading's anchor: its words as a slug, prefixed with the section's anchor unless they already start with it. */
export function headingAnchor(sectionId: string, heading: string): string {
  const slug = heading
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return slug === sectionId || slug.startsWith(`${sectionId}-`) ? slug : `${sectionId}-${slug}`;
}

export interface SectionHtml {
  html: string;
  /** What the Markdown holds that the guide does not allow, for the caller to report with the file. */
  problems: { field: string; problem: string }[];
}

/** `blocks` maps the text of a paragraph that stands for a generated block to that block. */
export function sectionHtml(markdown: string, options: { sectionId: string; wide: boolean; blocks: Map<string, Block> }): SectionHtml {
  const { sectionId, wide, blocks } = options;
  const problems: SectionHtml["problems"] = [];
  const checks = defineMdastPlugin({
    name: "frontdoor-guide-checks",
    heading(node) {
      if (node.depth < 3)
        problems.push({ field: "#".repeat(node.depth), problem: "the section's title is its own heading: start headings at ###" });
    },
    html(node) {
      problems.push({ field: node.value.slice(0, 40), problem: "raw HTML is not allowed: the Markdown twin would show it as it is" });
    },
  });
  const atRoot = (node: HastNode, ctx: HastVisitorContext) => ctx.parent(node)?.type === "root";
  const column = (node: HastNode, ctx: HastVisitorContext) => {
    if (wide && atRoot(node, ctx)) ctx.setProperty(node, "className", ["column"]);
  };
  // A table or code block that scrolls sideways must be reachable by keyboard (WCAG 2.1.1, axe's
  // scrollable-region-focusable). A table is a focusable group named by the heading it sits under: a group, not a region,
  // since the section is already the landmark of that name (axe's landmark-unique).
  let heading = sectionId;
  const scrollRegion = () => ({ className: ["table-scroll"], role: "group", tabindex: "0", "aria-labelledby": heading });
  const layout = defineHastPlugin({
    name: "frontdoor-guide-layout",
    element: [
      {
        filter: ["p"],
        visit(node, ctx) {
          const block = blocks.get(ctx.textContent(node).trim());
          if (block && atRoot(node, ctx)) ctx.replaceNode(node, { type: "raw", value: withScrollRegions(block.html(wide), heading) });
          else column(node, ctx);
        },
      },
      { filter: ["ul", "ol", "blockquote"], visit: column },
      {
        filter: ["pre"],
        visit(node, ctx) {
          ctx.setProperty(node, "tabindex", "0");
          column(node, ctx);
        },
      },
      {
        filter: ["h3", "h4", "h5", "h6"],
        visit(node, ctx) {
          heading = headingAnchor(sectionId, ctx.textContent(node));
          ctx.setProperty(node, "id", heading);
          column(node, ctx);
        },
      },
      {
        filter: ["table"],
        visit(node, ctx) {
          ctx.wrapNode(node, { type: "element", tagName: "div", properties: scrollRegion(), children: [] });
        },
      },
      { filter: ["th"], visit: (node, ctx) => ctx.setProperty(node, "scope", "col") },
      {
        // The first cell of a body row names the row, as in the generated tables (header rows hold th already).
        filter: ["td"],
        visit(node, ctx) {
          const row = ctx.parent(node) as { children: { type: string }[] };
          if (node.type !== "element" || ctx.indexOf(node) !== row.children.findIndex((child) => child.type === "element")) return;
          ctx.replaceNode(node, { ...node, tagName: "th", properties: { ...node.properties, scope: "row" } });
        },
      },
    ],
  });
  const { html } = markdownToHtml(markdown, { features, mdastPlugins: [checks], hastPlugins: [layout] });
  return { html, problems };
}
