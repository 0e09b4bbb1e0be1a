import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** docs/decisions.md opens with an index of its entries, in order, each linked by GitHub's anchor for its heading. */
const text = readFileSync(new URL("../../docs/decisions.md", import.meta.url), "utf8");
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");

describe("docs/decisions.md", () => {
  it("indexes every entry, in order, under its anchor", () => {
    const entries = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((heading) => heading !== "Index");
    const index = [...text.matchAll(/^- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => ({ heading: m[1]!, anchor: m[2]! }));
    expect(entries.length).toBeGreaterThan(50);
    expect(index.map((i) => i.heading)).toEqual(entries);
    for (const { heading, anchor: linked } of index) expect(linked, heading).toBe(anchor(heading));
  });
});
