import { link, table as markdownTable, text } from "../markdown/syntax.ts";
import type { FieldDoc } from "../site/schema-fields.ts";

/**
 * A generated part of the developer guide (a table, a code sample), rendered once as Markdown for the twin and once as
 * HTML for the page. `wide` is true in a section whose tables span the page: its prose-width parts take the column.
 */
export interface Block {
  markdown: string;
  html: (wide: boolean) => string;
}

/** What a generated cell holds: text, code, or a link; a cell may string several together. */
export type Inline = string | { code: string } | { href: string; label: string };
export type Cell = Inline | Inline[];

export interface Table {
  columns: string[];
  rows: Cell[][];
  /** The column whose cell names its row (a row header for assistive technology); the first unless said. */
  rowHeader?: number;
  /** An anchor for each row that other pages link to, such as `error-not-found`. */
  rowIds?: (string | undefined)[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A code span whose fence outruns any backticks inside it. */
function codeSpan(code: string) {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return longest === 0 ? `${fence}${code}${fence}` : `${fence} ${code} ${fence}`;
}

const parts = (cell: Cell) => (Array.isArray(cell) ? cell : [cell]);

/** In a GFM table a pipe ends the cell even inside a code span, unless escaped. */
const inlineMarkdown = (cell: Cell, inTable = false) =>
  parts(cell)
    .map((p) =>
      typeof p === "string" ? text(p) : "code" in p ? codeSpan(inTable ? p.code.replaceAll("|", "\\|") : p.code) : link(p.label, p.href),
    )
    .join("");

export const inlineHtml = (cell: Cell) =>
  parts(cell)
    .map((p) =>
      typeof p === "string"
        ? escapeHtml(p)
        : "code" in p
          ? `<code>${escapeHtml(p.code)}</code>`
          : `<a href="${escapeHtml(p.href)}">${escapeHtml(p.label)}</a>`,
    )
    .join("");

export function tableHtml(t: Table): string {
  const header = t.rowHeader ?? 0;
  const head = t.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join("");
  const body = t.rows
    .map((row, i) => {
      const id = t.rowIds?.[i];
      const cells = row.map((cell, j) => (j === header ? `<th scope="row">${inlineHtml(cell)}</th>` : `<td>${inlineHtml(cell)}</td>`));
      return `<tr${id ? ` id="${escapeHtml(id)}"` : ""}>${cells.join("")}</tr>`;
    })
    .join("");
  return `<div class="table-scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

export const tableMarkdown = (t: Table) =>
  markdownTable(
    t.columns.map(text),
    t.rows.map((row) => row.map((cell) => inlineMarkdown(cell, true))),
  );

export const tableBlock = (t: Table): Block => ({ markdown: tableMarkdown(t), html: () => tableHtml(t) });

/** The rows of a field table: path, type in words, meaning; generated from a zod schema by `fieldDocs`. */
export const fieldTable = (fields: FieldDoc[]): Table => ({
  columns: ["Field", "Type", "Meaning"],
  rows: fields.map((f) => [{ code: f.path }, f.type, f.description]),
});

/** A code sample: a fenced block in the twin, a `pre` in the page. */
export function codeBlock(language: string, code: string): Block {
  const fence = "`".repeat(Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  return {
    markdown: `${fence}${language}\n${code}\n${fence}`,
    // Focusable: a long line scrolls sideways, and a keyboard must reach it (WCAG 2.1.1).
    html: (wide) => `<pre tabindex="0"${wide ? ' class="column"' : ""}><code>${escapeHtml(code)}</code></pre>`,
  };
}

/** A sentence in place of a table that has no rows. */
export const sentenceBlock = (cell: Cell): Block => ({
  markdown: inlineMarkdown(cell),
  html: (wide) => `<p${wide ? ' class="column"' : ""}>${inlineHtml(cell)}</p>`,
});
