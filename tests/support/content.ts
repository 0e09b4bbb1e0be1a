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

/** Reads a content folder the way the Astro glob loaders do (id = file name), for tests that run without Astro. */
async function entries<S extends z.ZodType>(dir: string, pattern: RegExp, schema: S): Promise<Entry<z.infer<S>>[]> {
  const names = (await readdir(dir)).filter((n) => pattern.test(n)).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const text = await readFile(file, "utf8");
      const front = extname(name) === ".md" ? /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text) : null;
      const data = yaml.load(front ? front[1]! : text);
      return { id: basename(name, extname(name)), data: schema.parse(data), body: front?.[2] ?? undefined, filePath: file };
    }),
  );
}

export async function loadContentDir(root: string): Promise<RawContent> {
  return {
    company: await entries(root, /^company\.yaml$/, companySchema),
    contact: await entries(root, /^contact\.yaml$/, contactSchema),
    offers: await entries(join(root, "offers"), /\.yaml$/, offerSchema),
    caseStudies: await entries(join(root, "case-studies"), /\.md$/, caseStudySchema),
    pages: await entries(join(root, "pages"), /\.md$/, pageSchema),
    developerGuide: await entries(join(root, "developers"), /\.md$/, guideSectionSchema),
  };
}
