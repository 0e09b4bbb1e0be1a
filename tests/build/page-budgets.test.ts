import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brotliBytes, pageBudgets } from "../../scripts/lib/page-budgets.ts";
import { guidePagePaths } from "../../src/paths.ts";
import { countTokens } from "../../src/twins/tokens.ts";

/** Every built page within the budgets the pages bench prints (scripts/lib/page-budgets.ts), the developer guide's above all. */
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const pages = (await readdir(dist, { recursive: true }))
  .filter((f) => f.endsWith(".html"))
  .map((f) => `/${f.replace(/\.html$/, "")}`)
  .sort();
const read = (page: string, extension: string) => readFile(join(dist, `${page}${extension}`));

describe("every page of the build", () => {
  it("includes each page of the developer guide", () => {
    expect(pages).toEqual(expect.arrayContaining(Object.values(guidePagePaths)));
    expect(pages.length).toBeGreaterThan(Object.keys(guidePagePaths).length);
  });

  it.each(pages)("%s sends at most its HTML budget, Brotli-compressed", async (page) => {
    expect(brotliBytes(await read(page, ".html"))).toBeLessThanOrEqual(pageBudgets.htmlBrotliBytes);
  });

  it.each(pages)("%s has a twin within its token budget", async (page) => {
    expect(countTokens((await read(page, ".md")).toString("utf8"))).toBeLessThanOrEqual(pageBudgets.twinTokens);
  });
});
