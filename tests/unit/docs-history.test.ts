import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Every file in docs/ is a map of what is (decisions, architecture, today's figures). How the code got there belongs in
 * the commit log: these phrases tell a story rather than state a choice or a figure.
 */
const history = [
  "used to",
  "no longer",
  "previously",
  "until now",
  "this session",
  "session \\d",
  "at stop",
  "issue \\d",
  "found through",
  "before this change",
  "after this change",
  "after the attack",
  "we first tried",
  "we tried",
  "earlier code",
];

const docs = new URL("../../docs/", import.meta.url);
const files = readdirSync(docs).filter((name) => name.endsWith(".md"));

describe("docs/", () => {
  it("holds the map's files", () => {
    expect(files).toEqual(expect.arrayContaining(["architecture.md", "decisions.md", "performance.md"]));
  });

  it.each(files)("%s carries no history", (name) => {
    const text = readFileSync(new URL(name, docs), "utf8");
    // From the start of a word: "a refused token" is not "used to", while "issue \d" still finds "issue 25".
    const found = history.filter((phrase) => new RegExp(`\\b${phrase}`, "i").test(text));
    expect(found).toEqual([]);
    // A section headed by its date is a diary entry (a protocol revision such as 2025-03-26 inside a heading is not).
    expect(text.match(/^#+ 20\d\d-\d\d-\d\d.*$/gm) ?? []).toEqual([]);
  });
});
