import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** docs/decisions.md opens with an index of its entries, in order, each linked by GitHub's anchor for its heading. */
const text = readFileSync(new URL("../../docs/decisions.md", import.meta.url), "utf8");
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");

/**
 * Phrases that tell how a choice came about rather than what it is. Each entry states a choice as it stands (what, why, what
 * was rejected and why); the story of how the code got there belongs in the commit log.
 */
const sessionHistory = [
  "used to",
  "no longer",
  "previously",
  "until now",
  "this session",
  "session 1",
  "at stop",
  "issue 2",
  "found through",
  "before this change",
  "after the attack",
  "we first tried",
  "we tried",
  "earlier code",
];

describe("docs/decisions.md", () => {
  it("indexes every entry, in order, under its anchor", () => {
    const entries = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((heading) => heading !== "Index");
    const index = [...text.matchAll(/^- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => ({ heading: m[1]!, anchor: m[2]! }));
    expect(entries.length).toBeGreaterThan(50);
    expect(index.map((i) => i.heading)).toEqual(entries);
    for (const { heading, anchor: linked } of index) expect(linked, heading).toBe(anchor(heading));
  });

  it("carries no session history", () => {
    // From the start of a word: "a refused token" is not "used to", while "issue 2" still finds "issue 25".
    const found = sessionHistory.filter((phrase) => new RegExp(`\\b${phrase}`, "i").test(text));
    expect(found).toEqual([]);
  });
});
