import { describe, expect, it } from "vitest";
import { jsonRpcResponseType } from "../../src/a2a/media-type.ts";
import { inAnyCase, mediaRanges, prefersAlternative } from "../../src/accept.ts";

describe("the Accept parser both doors share", () => {
  it("reads ranges with their weights, lower-cased, quoted parameters included", () => {
    expect(mediaRanges('Text/HTML;level="1,2";q=0.3, text/*;q=0.2, *;q=0.1, application/json')).toEqual([
      { type: "application", subtype: "json", q: 1 },
      { type: "text", subtype: "html", q: 0.3 },
      { type: "text", subtype: "*", q: 0.2 },
      { type: "*", subtype: "*", q: 0.1 },
    ]);
  });

  it.each(["q=abc", "q=1.5", "q=-1", "q=0.1234", "Q=2"])("ignores a range weighted %s", (weight) => {
    expect(mediaRanges(`text/markdown;${weight}, text/html`)).toEqual([{ type: "text", subtype: "html", q: 1 }]);
  });

  it("ignores what is not a media range", () => {
    expect(mediaRanges("markdown, /, text/, , text/html")).toEqual([{ type: "text", subtype: "html", q: 1 }]);
    expect(mediaRanges(null)).toEqual([]);
  });

  it("lets a door send ties either way, and never chooses the alternative through a wildcard", () => {
    const tie = "application/json, text/event-stream";
    const choice = { alternative: "text/event-stream", usual: "application/json" };
    expect(prefersAlternative(tie, { ...choice, ties: "alternative" })).toBe(true);
    expect(prefersAlternative(tie, { ...choice, ties: "usual" })).toBe(false);
    for (const accept of ["*/*", "text/*", "*", "text/*, application/json;q=0.1"])
      expect(prefersAlternative(accept, { ...choice, ties: "alternative" }), accept).toBe(false);
    expect(prefersAlternative("application/*;q=0.4, text/event-stream;q=0.5", { ...choice, ties: "usual" })).toBe(true);
    expect(prefersAlternative("application/json;q=0.1, application/*;q=0.9, text/event-stream;q=0.5", { ...choice, ties: "usual" })).toBe(
      true,
    );
  });
});

describe("A2A's media type on JSON-RPC answers, by the same parser", () => {
  it.each([
    ["application/a2a+json", "application/a2a+json"],
    ["application/a2a+json, application/json", "application/a2a+json"],
    ["application/json", "application/json"],
    ["application/a2a+json;q=0.5, application/json", "application/json"],
    ["application/a2a+json;q=0", "application/json"],
    ["*/*", "application/json"],
    [null, "application/json"],
  ])("Accept %s is answered in %s", (accept, type) => {
    expect(jsonRpcResponseType(accept)).toBe(type);
  });
});

describe("inAnyCase", () => {
  it("finds the text in any case and nothing else, its other characters taken literally", () => {
    const pattern = new RegExp(`^${inAnyCase("application/a2a+json")}$`);
    for (const text of ["application/a2a+json", "APPLICATION/A2A+JSON", "Application/A2a+Json"])
      expect(pattern.test(text), text).toBe(true);
    for (const text of ["application/a2aa+json", "application/a2a json", "application/json"]) expect(pattern.test(text), text).toBe(false);
  });
});
