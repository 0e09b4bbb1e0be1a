import { describe, expect, it } from "vitest";
import { config } from "../../functions/edge/markdown.ts";
import { prefersMarkdown } from "../../src/twins/negotiate.ts";

describe("prefersMarkdown", () => {
  it.each([
    ["text/markdown", true],
    ["text/markdown, text/html;q=0.9", true],
    ["text/html, text/markdown", true],
    ["text/markdown;q=0.8, text/*;q=0.5", true],
    ["TEXT/MARKDOWN", true],
    ["text/markdown; charset=utf-8", true],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", false],
    ["text/markdown;q=0.5, text/html", false],
    ["text/markdown;q=0.5, text/*", false],
    ["text/markdown;q=0", false],
    ["text/markdown;q=abc", false],
    ["text/markdown;q=1.5", false],
    // A quoted parameter may hold a comma: it does not end the range, so this text/html weighs 0.1.
    ['text/markdown;q=0.5, text/html;note="a,b";q=0.1', true],
    ['text/html;note="a,b";q=0.1, text/markdown;q=0.05', false],
    ["text/markdown, */*", true],
    ["*", false],
    ["*/*", false],
    ["text/*", false],
    ["", false],
    [null, false],
  ])("Accept: %s -> markdown %s", (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });
});

describe("the twins' edge condition", () => {
  // Netlify runs functions/edge/markdown.ts only when this regex finds a match in Accept: it must in every case.
  const condition = new RegExp((config.header as { accept: string }).accept);

  it.each(["text/markdown", "TEXT/MARKDOWN", "Text/Markdown", "text/html;q=0.5, tExT/mArKdOwN;q=0.9", "TEXT/MARKDOWN; CHARSET=UTF-8"])(
    "lets Accept: %s reach the function",
    (accept) => {
      expect(condition.test(accept)).toBe(true);
      expect(prefersMarkdown(accept)).toBe(true);
    },
  );

  it.each(["text/html", "*/*", "text/*", "text/x-markdown", "textXmarkdown"])("keeps Accept: %s off it", (accept) => {
    expect(condition.test(accept)).toBe(false);
  });
});
