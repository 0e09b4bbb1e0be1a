import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * docs/decisions.md: a one-line introduction, an index, then one `## ` heading per topic and one `### ` heading per entry.
 * The index lists every topic and, under it, every entry of that topic, in order, each linked by GitHub's anchor for its
 * heading.
 */
const text = readFileSync(new URL("../../docs/decisions.md", import.meta.url), "utf8");
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");

/** The topics, in the order a reader meets the system: what is published, then each door, then what runs it. */
const topics = ["Site", "API", "OAuth", "MCP", "A2A", "Briefs", "Booking", "Operations and wiring", "Local runtime", "Tests"];

/**
 * The most lines an entry's body may take, counting every non-empty line from its heading to the next heading, each as
 * the lines it fills at the file's width (Prettier's printWidth, since the prose is wrapped by hand at it). Fifteen lines
 * hold what an entry is for: the choice, why, and each alternative turned down with its reason. Measurements belong in
 * docs/performance.md, the story of how the code got there in the commit log.
 */
const maxEntryLines = 15;
const width = (JSON.parse(readFileSync(new URL("../../.prettierrc.json", import.meta.url), "utf8")) as { printWidth: number }).printWidth;

interface Topic {
  heading: string;
  entries: string[];
}

/** The topics and entries as the body's headings give them, after the index. */
function bodyTopics(): Topic[] {
  const found: Topic[] = [];
  for (const [, level, heading] of text.matchAll(/^(##|###) (.+)$/gm)) {
    if (level === "##") {
      if (heading !== "Index") found.push({ heading: heading!, entries: [] });
    } else {
      expect(found.length, `"${heading}" comes before any topic`).toBeGreaterThan(0);
      found.at(-1)!.entries.push(heading!);
    }
  }
  return found;
}

/** The index: `- [Topic](#anchor)` lines, each followed by its `  - [Entry](#anchor)` lines. */
function indexed(): { topics: Topic[]; links: { heading: string; anchor: string }[] } {
  const found: Topic[] = [];
  const links: { heading: string; anchor: string }[] = [];
  for (const [, indent, heading, linked] of text.matchAll(/^( {2})?- \[(.+)\]\(#([^)]+)\)$/gm)) {
    links.push({ heading: heading!, anchor: linked! });
    if (indent === undefined) found.push({ heading: heading!, entries: [] });
    else found.at(-1)!.entries.push(heading!);
  }
  return { topics: found, links };
}

/** Each entry's body: its non-empty lines up to the next heading. */
function bodies(): { heading: string; lines: string[] }[] {
  const sections = text.split(/^(?=##+ )/m).filter((section) => section.startsWith("### "));
  return sections.map((section) => {
    const [first, ...rest] = section.split("\n");
    return { heading: first!.slice(4), lines: rest.filter((line) => line.trim() !== "") };
  });
}

describe("docs/decisions.md", () => {
  it("groups its entries under the topics, in order", () => {
    expect(text.match(/^## Index$/gm)).toHaveLength(1);
    expect(bodyTopics().map((t) => t.heading)).toEqual(topics);
    for (const topic of bodyTopics()) expect(topic.entries.length, topic.heading).toBeGreaterThan(0);
    expect(bodyTopics().flatMap((t) => t.entries).length).toBeGreaterThan(50);
  });

  it("indexes every entry under its topic, in order, by GitHub's anchor", () => {
    const { topics: index, links } = indexed();
    expect(index).toEqual(bodyTopics());
    for (const { heading, anchor: linked } of links) expect(linked, heading).toBe(anchor(heading));
    // GitHub numbers a repeated anchor (`-1`), which the index would not link to.
    const anchors = ["index", ...links.map((l) => l.anchor)];
    expect(anchors.filter((a, i) => anchors.indexOf(a) !== i)).toEqual([]);
  });

  it(`keeps each entry within ${maxEntryLines} lines`, () => {
    const long = bodies()
      .map(({ heading, lines }) => ({ heading, lines: lines.reduce((n, line) => n + Math.ceil(line.length / width), 0) }))
      .filter((entry) => entry.lines > maxEntryLines);
    expect(long).toEqual([]);
  });
});
