import { readdir, readFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import yaml from "js-yaml";
import type { z } from "zod";
import { caseStudySchema } from "../../src/schemas/case-study.ts";
import { companySchema } from "../../src/schemas/company.ts";
import { contactSchema } from "../../src/schemas/contact.ts";
import { guideSectionSchema } from "../../src/schemas/guide-section.ts";
import { offerSchema } from "../../src/schemas/offer.ts";
import { pageSchema } from "../../src/schemas/page.ts";
import type { Entry, RawContent } from "../../src/site/model.ts";

/** Changes to a content folder's files as they are read, by path in the folder ("contact.yaml", "pages/work.md"). */
export type ContentEdits = Record<string, (text: string) => string>;

/** An edit that replaces each key with its value, and fails on a file without one of them: an edit never misses unseen. */
export const replacing = (replacements: Record<string, string>) => (text: string) =>
  Object.entries(replacements).reduce((edited, [from, to]) => {
    if (!edited.includes(from)) throw new Error(`the file has no "${from}"`);
    return edited.replace(from, to);
  }, text);

/** Reads a content folder the way the Astro glob loaders do (id = file name), for tests that run without Astro. */
async function entries<S extends z.ZodType>(root: string, folder: string, pattern: RegExp, schema: S, edits: ContentEdits) {
  const names = (await readdir(join(root, folder))).filter((n) => pattern.test(n)).sort();
  return Promise.all(
    names.map(async (name): Promise<Entry<z.infer<S>>> => {
      const path = folder ? `${folder}/${name}` : name;
      const file = join(root, path);
      const edit = edits[path] ?? ((text: string) => text);
      const text = edit(await readFile(file, "utf8"));
      const front = extname(name) === ".md" ? /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text) : null;
      const data = yaml.load(front ? front[1]! : text);
      return { id: basename(name, extname(name)), data: schema.parse(data), body: front?.[2] ?? undefined, filePath: file };
    }),
  );
}

export async function loadContentDir(root: string, edits: ContentEdits = {}): Promise<RawContent> {
  const raw = {
    company: await entries(root, "", /^company\.yaml$/, companySchema, edits),
    contact: await entries(root, "", /^contact\.yaml$/, contactSchema, edits),
    offers: await entries(root, "offers", /\.yaml$/, offerSchema, edits),
    caseStudies: await entries(root, "case-studies", /\.md$/, caseStudySchema, edits),
    pages: await entries(root, "pages", /\.md$/, pageSchema, edits),
    developerGuide: await entries(root, "developers", /\.md$/, guideSectionSchema, edits),
  };
  const read = new Set(Object.values(raw).flatMap((list) => list.map((e) => e.filePath)));
  const missed = Object.keys(edits).filter((path) => !read.has(join(root, path)));
  if (missed.length > 0) throw new Error(`no content file ${missed.join(", ")} to edit`);
  return raw;
}
