/** Small, dependency-free builders for clean CommonMark/GFM. Text is escaped so content can never become markup. */

const inlineSpecials = /[\\`*[\]<>|]/g;
// An underscore inside a word (snake_case) never starts emphasis in CommonMark; only the others are escaped.
const looseUnderscores = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

export const text = (s: string) =>
  s
    .replace(inlineSpecials, (c) => `\\${c}`)
    .replace(looseUnderscores, "\\_")
    .replace(/^([#>+-]|\d+\.)(?=\s)/, "\\$1");

/** A link; the destination is wrapped in <...> only when it holds spaces or parentheses. */
export const link = (label: string, url: string) =>
  `[${text(label)}](${/[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url})`;

export const heading = (level: number, title: string) => `${"#".repeat(level)} ${text(title)}`;

export const bullets = (items: string[]) => items.map((item) => `- ${item}`).join("\n");

/** A GFM table; cells are already-rendered inline Markdown. */
export function table(header: string[], rows: string[][]) {
  const cell = (c: string) => c.replace(/\n/g, " ");
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
}

/** Joins blocks with one blank line between them and ends the document with a newline. */
export const document = (...blocks: (string | false | undefined)[]) =>
  `${blocks.filter((b): b is string => typeof b === "string" && b.trim() !== "").join("\n\n")}\n`;
