import { describe, expect, it } from "vitest";
import { document, link, table, text } from "../../src/markdown/syntax.ts";

describe("Markdown builders", () => {
  it("escapes text so content never becomes markup", () => {
    expect(text("a *b* [c](d) <script> | _e_")).toBe("a \\*b\\* \\[c\\](d) \\<script\\> \\| \\_e\\_");
    expect(text("# not a heading")).toBe("\\# not a heading");
    expect(text("lead_id and _emphasis_")).toBe("lead_id and \\_emphasis\\_");
  });

  it("wraps link destinations only when they need it", () => {
    expect(link("Offers", "https://example.com/offers")).toBe("[Offers](https://example.com/offers)");
    expect(link("x", "https://example.com/a (b)")).toBe("[x](<https://example.com/a (b)>)");
  });

  it("builds GFM tables and joins blocks with one blank line", () => {
    expect(table(["A", "B"], [["1", "2"]])).toBe("| A | B |\n| --- | --- |\n| 1 | 2 |");
    expect(document("# T", "", undefined, "p")).toBe("# T\n\np\n");
  });
});
