import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPlaceholders, standsAlone } from "../../src/guide/placeholders.ts";
import { linkedAnchors, renderGuide } from "../../src/guide/render.ts";
import { durationInWords, guideValues } from "../../src/guide/values.ts";
import { perWindow, policies } from "../../src/limits/policies.ts";
import { guidePages } from "../../src/guide/render.ts";
import { developersMarkdown, guidePageMarkdown } from "../../src/markdown/developers.ts";
import { guidePagePaths, guideSubjects, type GuidePageId } from "../../src/paths.ts";
import { buildSite, type RawContent } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";

const base = "https://studio.example";
const content = await loadContentDir("content");
const site = buildSite(content, base);

/** The real guide with one section added or replaced (on the API page unless said), as the glob loader would hand it over. */
function siteWith(id: string, body: string, options: { layout?: "wide" | "column"; studio?: string; page?: GuidePageId } = {}) {
  const raw: RawContent = structuredClone(content);
  raw.developerGuide = raw.developerGuide.filter((e) => e.id !== id);
  raw.developerGuide.push({
    id,
    data: { title: "Trial", page: options.page ?? "api", order: 99, layout: options.layout ?? "wide" },
    body,
    filePath: `content/developers/${id}.md`,
  });
  if (options.studio) raw.company[0]!.data.name = options.studio;
  return buildSite(raw, base);
}
const section = (s: ReturnType<typeof siteWith>, id: string) => renderGuide(s).find((r) => r.id === id)!;

describe("placeholders", () => {
  it("are {{kind:name}}, found with their place", () => {
    const text = "At most {{limit:mcp}} {{ window:mcp }}.\n\n{{table:quotas}}\n";
    expect(findPlaceholders(text, "f.md").map(({ kind, name, start }) => [kind, name, start])).toEqual([
      ["limit", "mcp", 8],
      ["window", "mcp", 22],
      ["table", "quotas", 41],
    ]);
  });

  it("refuse anything else between double braces, and an unclosed one, naming the file", () => {
    expect(() => findPlaceholders("a {{Limit mcp}} b", "content/developers/x.md")).toThrow(
      "content/developers/x.md: {{Limit mcp}}: is not a placeholder",
    );
    expect(() => findPlaceholders("a {{limit:mcp} b", "content/developers/x.md")).toThrow(/x\.md: \{\{limit:mcp\} b: .*not closed/);
  });

  it("stand alone as a block only on a line of their own between blank lines", () => {
    const alone = (text: string) => standsAlone(text, findPlaceholders(text, "f.md")[0]!);
    expect(alone("{{table:quotas}}")).toBe(true);
    expect(alone("Intro.\n\n{{table:quotas}}\n\nMore.")).toBe(true);
    expect(alone("Intro.\n{{table:quotas}}\n\nMore.")).toBe(false);
    expect(alone("See {{table:quotas}}.")).toBe(false);
    expect(alone("- item\n\n  {{table:quotas}}\n")).toBe(false);
    expect(alone("```\n{{table:quotas}}\n```")).toBe(false);
  });
});

describe("the developer guide", () => {
  it("renders each section once as Markdown and once as HTML, with the same words and numbers", () => {
    const s = siteWith("trial", "At most {{limit:mcp}} requests {{window:mcp}}.\n\n{{table:quotas}}\n");
    const trial = section(s, "trial");
    const said = `${policies.mcp.quota} requests ${perWindow(policies.mcp.windowSeconds)}`;
    expect(trial.markdown).toContain(`At most ${said}.`);
    expect(trial.markdown).toContain("| `briefs-per-grant` | 10 | 3600 s |");
    expect(trial.html).toContain(`<p class="column">At most ${said}.</p>`);
    expect(trial.html).toContain(
      '<div class="table-scroll" role="group" tabindex="0" aria-labelledby="trial"><table><thead><tr><th scope="col">Policy</th>',
    );
    expect(trial.html).toContain('<tr><th scope="row"><code>briefs-per-grant</code></th><td>10</td><td>3600 s</td>');
  });

  it("escapes a value in prose and writes it as it is in code, in both renderings", () => {
    const s = siteWith("trial", "Ask *{{site:studio}}*: `{{site:studio}}`.\n\n```sh\necho {{site:studio}}\n```\n", {
      studio: "Stars*And_Bars_ Studio",
    });
    const trial = section(s, "trial");
    expect(trial.markdown).toContain("Ask *Stars\\*And_Bars\\_ Studio*: `Stars*And_Bars_ Studio`.");
    expect(trial.markdown).toContain("echo Stars*And_Bars_ Studio");
    expect(trial.html).toContain("Ask <em>Stars*And_Bars_ Studio</em>: <code>Stars*And_Bars_ Studio</code>.");
    expect(trial.html).toContain("echo Stars*And_Bars_ Studio");
  });

  it("keeps prose in the reading column of a wide section, and everything in a column section", () => {
    const body = "Words.\n\n### Limits here\n\n| Name | Value |\n| --- | --- |\n| `a` | b |\n\n- one\n\n{{sample:quota-headers}}\n";
    const wide = section(siteWith("trial", body), "trial").html;
    expect(wide).toContain('<p class="column">Words.</p>');
    expect(wide).toContain('<h3 id="trial-limits-here" class="column">Limits here</h3>');
    expect(wide).toMatch(
      /<div class="table-scroll" role="group" tabindex="0" aria-labelledby="trial-limits-here"><table>\s*<thead>\s*<tr>\s*<th scope="col">Name<\/th>/,
    );
    expect(wide).toMatch(/<tr>\s*<th scope="row"><code>a<\/code><\/th>\s*<td>b<\/td>/);
    expect(wide).toContain('<ul class="column">');
    expect(wide).toContain('<pre tabindex="0" class="column"><code>RateLimit-Policy: ');
    const column = section(siteWith("trial", body, { layout: "column" }), "trial").html;
    expect(column).not.toContain('class="column"');
    expect(column).toContain('<pre tabindex="0"><code>RateLimit-Policy: ');
  });

  it("makes in-page links absolute in the twin only", () => {
    const trial = section(siteWith("trial", "See [the quota](#quota) and [offers](/offers).\n"), "trial");
    expect(trial.markdown).toBe(`See [the quota](${base}/developers/api#quota) and [offers](${base}/offers).`);
    expect(trial.html).toContain('<a href="#quota">the quota</a>');
  });

  it("points a link to an anchor on another page of the guide at that page, and one to a subject page's first section at the page", () => {
    const body = "See [MCP](#mcp), [its errors](#mcp-errors), [a code](#error-slot-taken) and [the quota](#quota).\n";
    const trial = section(siteWith("trial", body, { page: "booking" }), "trial");
    expect(trial.markdown).toBe(
      `See [MCP](${base}/developers/mcp), [its errors](${base}/developers/mcp#mcp-errors), [a code](${base}/developers#error-slot-taken) and [the quota](${base}/developers/api#quota).`,
    );
    expect(trial.html).toContain(
      '<a href="/developers/mcp">MCP</a>, <a href="/developers/mcp#mcp-errors">its errors</a>, <a href="/developers#error-slot-taken">a code</a> and <a href="/developers/api#quota">the quota</a>',
    );
  });

  it.each([
    [
      "an unknown name",
      "{{limit:no-such-policy}}",
      /trial\.md: \{\{limit:no-such-policy\}\}: the code provides no limit "no-such-policy" \(it has: public-api,/,
    ],
    [
      "an unknown kind",
      "{{quota:mcp}}",
      /trial\.md: \{\{quota:mcp\}\}: there is no kind "quota": values are limit, window, .*; blocks are table, fields, sample/,
    ],
    [
      "a block inside a sentence",
      "The quotas: {{table:quotas}}",
      /trial\.md: \{\{table:quotas\}\}: a generated block stands on a line of its own/,
    ],
    [
      "a block inside a code block",
      "```\n\n{{table:quotas}}\n\n```",
      /trial\.md: \{\{table:quotas\}\}: a generated block stands on a line of its own/,
    ],
    ["a name every object has", "{{limit:constructor}}", /trial\.md: \{\{limit:constructor\}\}: the code provides no limit "constructor"/],
    ["a heading above ###", "## Mine\n\nText.", /trial\.md: ##: the section's title is its own heading: start headings at ###/],
    ["raw HTML", "<div>hi</div>", /trial\.md: <div>hi<\/div>: raw HTML is not allowed/],
    ["a link to an anchor the guide lacks", "See [this](#nowhere).", /trial\.md: #nowhere: links to an anchor the guide does not have/],
    [
      "two headings with one anchor",
      "### Limits\n\nA.\n\n### Limits\n\nB.",
      /trial\.md: #trial-limits: is the anchor of two places in the guide/,
    ],
  ])("fails on %s, naming the file and what is wrong", (_, body, message) => {
    expect(() => renderGuide(siteWith("trial", body))).toThrow(message);
  });

  it("fails when an anchor other surfaces link to goes missing", () => {
    const raw: RawContent = structuredClone(content);
    raw.developerGuide = raw.developerGuide.filter((e) => e.id !== "versioning");
    expect(() => renderGuide(buildSite(raw, base))).toThrow(
      "content/developers/: #versioning: is missing from /developers/api: the Link header of a deprecated operation links to it there",
    );
    const mcp = raw.developerGuide.find((e) => e.id === "mcp")!;
    mcp.body = mcp.body!.replace("### MCP errors", "### Errors of the transport");
    raw.developerGuide = content.developerGuide.filter((e) => e.id !== "mcp").concat(mcp);
    expect(() => renderGuide(buildSite(raw, base))).toThrow("content/developers/: #mcp-errors: is missing from /developers/mcp");
  });

  it("fails when a section other surfaces link to moves to another page, and when a subject page has no section", () => {
    const raw: RawContent = structuredClone(content);
    raw.developerGuide.find((e) => e.id === "errors")!.data.page = "api";
    expect(() => renderGuide(buildSite(raw, base))).toThrow(
      "content/developers/: #errors: is missing from /developers: the documentation_url of every problem document links to it there",
    );
    // Anchors are the guide's, not a page's: a section named as another page's heading is refused too.
    expect(() => renderGuide(siteWith("mcp-errors", "Words.", { page: "booking" }))).toThrow(
      /#mcp-errors: is the anchor of two places in the guide, here and in content\/developers\/mcp-errors\.md/,
    );
    const empty: RawContent = structuredClone(content);
    empty.developerGuide = empty.developerGuide.filter((e) => e.data.page !== "booking");
    expect(() => buildSite(empty, base)).toThrow('content/developers/: page: no section is on the page "booking"');
  });

  it("says durations and windows in words", () => {
    expect([60, 300, 900, 3600, 86_400, 180 * 86_400, 2].map(durationInWords)).toEqual([
      "1 minute",
      "5 minutes",
      "15 minutes",
      "1 hour",
      "24 hours",
      "180 days",
      "2 seconds",
    ]);
  });
});

describe("the guide's content", () => {
  it("never types a limit the code holds: every such number is a placeholder", async () => {
    const dir = "content/developers";
    const values = guideValues(site);
    const numbers = [values.limit, values.size, values.duration, values.length].flatMap((kind) => Object.values(kind));
    for (const file of await readdir(dir)) {
      const body = (await readFile(join(dir, file), "utf8")).replace(/^---\n[\s\S]*?\n---\n/, "");
      const prose = body.replace(/\{\{[^}]*\}\}/g, "");
      const typed = numbers.filter((n) => new RegExp(`(?<![\\w.-])${n.replace(/\s+/g, "\\s+")}(?![\\w.])`).test(prose));
      expect(typed, file).toEqual([]);
    }
  });

  it("puts every section on one page of the guide, and gives each page's twin its sections, in order", () => {
    const pages = guidePages(site);
    expect(pages.map((p) => p.id)).toEqual(Object.keys(guidePagePaths));
    expect(pages.flatMap((p) => p.sections.map((s) => s.id)).sort()).toEqual(site.developerGuide.map((s) => s.id).sort());
    expect(site.developerGuide.length).toBeGreaterThanOrEqual(12);
    for (const page of pages) {
      const twin = page.id === "index" ? developersMarkdown(site) : guidePageMarkdown(site, page.id);
      expect(twin, page.id).toMatch(new RegExp(`^# ${page.page.heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`));
      const at = page.sections.map((s) => twin.indexOf(`\n## ${s.title}\n`));
      expect(
        at.every((i) => i > 0),
        page.id,
      ).toBe(true);
      expect(
        [...at].sort((a, b) => a - b),
        page.id,
      ).toEqual(at);
    }
  });

  it("keeps every anchor other surfaces link to on the page they link to, the error codes on the index", () => {
    for (const [anchor, { page }] of Object.entries(linkedAnchors)) {
      const where = guidePages(site).find((p) => p.id === page)!;
      expect(
        where.sections.some((s) => s.id === anchor || s.html.includes(` id="${anchor}"`)),
        anchor,
      ).toBe(true);
    }
    expect(Object.entries(linkedAnchors).filter(([anchor, { page }]) => anchor.startsWith("error-") && page !== "index")).toEqual([]);
  });

  it("lists each subject page on the index, and each section of a page of several, by the anchor the section had there", () => {
    const twin = developersMarkdown(site);
    for (const id of guideSubjects) expect(twin, id).toContain(`](${base}${guidePagePaths[id]}):`);
    expect(twin).toContain(`[Quota](${base}/developers/api#quota)`);
  });
});
