import { valuesIn } from "../guide/html.ts";
import { resolveValues } from "../guide/placeholders.ts";
import type { Company } from "../schemas/company.ts";

/**
 * The values every content file may name, as the developer guide does: `{{site:studio}}` is the studio's name, written
 * once in company.yaml, so a fork that renames the studio changes one line.
 */
export const siteValues = (company: Company) => ({ site: { studio: company.name } });

type Values = ReturnType<typeof siteValues>;

/** Every string in front matter or YAML with its placeholders resolved (plain text: each surface escapes it). */
export function resolveFields<T>(data: T, file: string, values: Values): T {
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string") return resolveValues(value, file, values);
    if (Array.isArray(value)) return value.map(resolve);
    if (value && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, resolve(v)]));
    }
    return value;
  };
  return resolve(data) as T;
}

/** A Markdown body with its placeholders resolved: escaped as text in prose, as it is in code, as the guide writes them. */
export const resolveMarkdown = (markdown: string, file: string, values: Values) =>
  markdown.includes("{{") ? resolveValues(markdown, file, values, valuesIn(markdown).write) : markdown;
