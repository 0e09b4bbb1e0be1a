import { aboutSetting, settingNames, type About, type SettingName } from "../../src/config/settings.ts";

/**
 * The configuration tables, written from the settings schema: the README's (one short line per variable) and
 * docs/configuration.md's (every flag). `npm run config-table` writes them; tests/unit/settings.test.ts holds both files to
 * what it would write.
 */

/** A row of a table: the variables it names (next ones that the schema says the same of share a row) and what it says. */
interface Row {
  names: SettingName[];
  about: About;
}

/** Every variable in the schema's order; a variable the schema says the same of as the one before shares its row. */
function rows(): Row[] {
  const shown = (about: About) => JSON.stringify({ ...about, unset: undefined });
  const all: Row[] = [];
  for (const name of settingNames) {
    const about = aboutSetting(name);
    const last = all.at(-1);
    if (last && shown(last.about) === shown(about)) last.names.push(name);
    else all.push({ names: [name], about });
  }
  return all;
}

const names = (row: Row) => row.names.map((name) => `\`${name}\``).join(", ");
const yes = (flag: boolean | undefined) => (flag ? "yes" : "");
/** The default as both tables show it. */
export const shownDefault = (about: About) => about.default ?? (about.kind === "netlify" ? "set by Netlify" : "none");
/** Who sets a variable, by its kind, as docs/configuration.md's table says it (that file explains each). */
export const setBy: Record<About["kind"], string> = {
  product: "you",
  runtime: "you, for npm start",
  internal: "npm start",
  netlify: "Netlify",
};

/** A Markdown table as Prettier formats it: every cell padded to its column's width. */
export function markdownTable(header: string[], body: string[][]): string[] {
  const cells = [header, ...body];
  for (const cell of cells.flat()) {
    if (!/^[\x20-\x7e]*$/.test(cell) || cell.includes("|")) throw new Error(`A table cell must be printable ASCII without "|": ${cell}`);
  }
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...body.map(line)];
}

/** The README's table: what each variable does, in one line. */
export const readmeTable = () =>
  markdownTable(
    ["Variable", "Required in production", "Default", "What it does"],
    rows().map((row) => [names(row), yes(row.about.requiredInProduction), shownDefault(row.about), row.about.summary]),
  );

/** docs/configuration.md's table: every flag of each variable. */
export const configurationTable = () =>
  markdownTable(
    ["Variable", "Default", "Required in production", "Secret", "Read by the build", "Set by"],
    rows().map((row) => [
      names(row),
      shownDefault(row.about),
      yes(row.about.requiredInProduction),
      yes(row.about.secret),
      yes(row.about.readByBuild),
      setBy[row.about.kind],
    ]),
  );

/** `text` with the first table under the line `heading` (before the next `## ` heading) replaced by `table`. */
export function withTable(text: string, heading: string, table: string[], file: string): string {
  const lines = text.split("\n");
  const at = lines.indexOf(heading);
  if (at < 0) throw new Error(`${file} has no line "${heading}" for the configuration table to follow`);
  let first = at + 1;
  while (first < lines.length && !lines[first]!.startsWith("|")) {
    if (lines[first]!.startsWith("## ")) throw new Error(`${file} has no table under "${heading}"`);
    first++;
  }
  if (first === lines.length) throw new Error(`${file} has no table under "${heading}"`);
  let end = first;
  while (end < lines.length && lines[end]!.startsWith("|")) end++;
  return [...lines.slice(0, first), ...table, ...lines.slice(end)].join("\n");
}

/** The files `npm run config-table` writes, each with its table and the heading it follows. */
export const configTables = [
  { file: "README.md", heading: "## Configuration", table: readmeTable },
  { file: "docs/configuration.md", heading: "## Variables", table: configurationTable },
];

/** The file's text with its configuration table as the schema says it. */
export function written(file: string, text: string): string {
  const target = configTables.find((t) => t.file === file);
  if (!target) throw new Error(`${file} has no configuration table`);
  return withTable(text, target.heading, target.table(), file);
}
