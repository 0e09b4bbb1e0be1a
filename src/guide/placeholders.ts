import { ContentError } from "../site/content-error.ts";

/**
 * `{{kind:name}}` in the guide's Markdown: a value (`{{limit:mcp}}`, anywhere, prose and code alike) or a generated
 * block (`{{table:quotas}}`, on a line of its own). Names are lowercase, so a placeholder never holds Markdown syntax.
 */
export interface Placeholder {
  /** As written, braces included. */
  source: string;
  kind: string;
  name: string;
  start: number;
  end: number;
}

const braces = /\{\{([^{}]*)\}\}/g;
const shape = /^\s*([a-z][a-z0-9-]*):([a-z0-9][a-z0-9_-]*)\s*$/;

export function findPlaceholders(markdown: string, file: string): Placeholder[] {
  const found = [...markdown.matchAll(braces)].map((m) => {
    const parts = shape.exec(m[1]!);
    if (!parts) throw new ContentError(file, m[0], "is not a placeholder: write {{kind:name}}, such as {{limit:mcp}}");
    return { source: m[0], kind: parts[1]!, name: parts[2]!, start: m.index, end: m.index + m[0].length };
  });
  const rest = markdown.replace(braces, "");
  const open = rest.indexOf("{{");
  if (open >= 0) throw new ContentError(file, rest.slice(open, open + 30).split("\n")[0]!, "a placeholder is not closed with }}");
  return found;
}

/** What placeholders can name, by kind and name: values (text) or, in the guide, generated blocks. */
export type Known = Record<string, Record<string, unknown>>;

/** Fails the build, naming the file and the placeholder, on a kind or a name that `known` does not have. */
export function checkKnown(p: Placeholder, file: string, known: Known, kinds = `the kinds are ${Object.keys(known).join(", ")}`): void {
  if (!Object.hasOwn(known, p.kind)) throw new ContentError(file, p.source, `there is no kind "${p.kind}": ${kinds}`);
  if (!Object.hasOwn(known[p.kind]!, p.name)) {
    throw new ContentError(
      file,
      p.source,
      `the code provides no ${p.kind} "${p.name}" (it has: ${Object.keys(known[p.kind]!).join(", ")})`,
    );
  }
}

/** `source` with every value placeholder replaced by `write(value, placeholder)`; an unknown one fails the build. */
export function resolveValues(
  source: string,
  file: string,
  values: Record<string, Record<string, string>>,
  write = (value: string, _p: Placeholder) => value,
): string {
  const placeholders = findPlaceholders(source, file);
  for (const p of placeholders) checkKnown(p, file, values);
  return splice(source, placeholders, (p) => write(values[p.kind]![p.name]!, p));
}

/** A block placeholder is a paragraph of its own: alone on its line, unindented, with a blank line (or the end) on either side. */
export function standsAlone(markdown: string, p: Placeholder): boolean {
  const lineStart = markdown.lastIndexOf("\n", p.start - 1) + 1;
  const lineEnd = markdown.indexOf("\n", p.end) === -1 ? markdown.length : markdown.indexOf("\n", p.end);
  if (lineStart !== p.start || lineEnd !== p.end) return false;
  const before = markdown.slice(0, lineStart).replace(/\n$/, "");
  const after = markdown.slice(lineEnd + 1);
  const blank = (line: string | undefined) => line === undefined || line.trim() === "";
  return (
    blank(before === "" ? undefined : before.slice(before.lastIndexOf("\n") + 1)) && blank(after === "" ? undefined : after.split("\n")[0])
  );
}

/** Replaces each placeholder, from the last to the first so that earlier offsets stay true. */
export function splice(markdown: string, placeholders: Placeholder[], replace: (p: Placeholder) => string): string {
  return [...placeholders]
    .sort((a, b) => b.start - a.start)
    .reduce((text, p) => `${text.slice(0, p.start)}${replace(p)}${text.slice(p.end)}`, markdown);
}
