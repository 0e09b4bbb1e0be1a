import { parseDictionary, Token } from "structured-headers";
import { describe, expect, it } from "vitest";
import { contentSignalValue, contentUsageValue, usageHeaders, usagePreferences } from "../../src/discovery/policy.ts";
import { robotsTxt } from "../../src/discovery/robots.ts";

/** A Structured Fields dictionary of Tokens (RFC 9651), as a plain record: both vocabularies are one. */
const tokens = (value: string) =>
  Object.fromEntries(
    [...parseDictionary(value)].map(([key, [item]]) => {
      expect(item, key).toBeInstanceOf(Token);
      return [key, (item as Token).toString()];
    }),
  );

describe("the usage preferences, from the one table of src/discovery/policy.ts", () => {
  it("are Content Signals and aipref's Content-Usage, each a valid Structured Fields dictionary", () => {
    expect(contentSignalValue).toBe("search=yes, ai-input=yes, ai-train=no");
    expect(contentUsageValue).toBe("search=y, train-ai=n");
    expect(tokens(contentSignalValue)).toEqual({ search: "yes", "ai-input": "yes", "ai-train": "no" });
    expect(tokens(contentUsageValue)).toEqual({ search: "y", "train-ai": "n" });
    expect(usageHeaders).toEqual([
      ["Content-Signal", contentSignalValue],
      ["Content-Usage", contentUsageValue],
    ]);
  });

  it("say the same in both vocabularies: every aipref term agrees with its Content Signal, and only ai-input has none", () => {
    const signals = tokens(contentSignalValue);
    const usage = tokens(contentUsageValue);
    for (const { contentSignal, aipref } of usagePreferences) {
      if (aipref) expect(usage[aipref], aipref).toBe(signals[contentSignal] === "yes" ? "y" : "n");
    }
    expect(usagePreferences.filter((p) => !p.aipref).map((p) => p.contentSignal)).toEqual(["ai-input"]);
    // aipref's vocabulary (draft-ietf-aipref-vocab) has only these two terms.
    expect(Object.keys(usage).sort()).toEqual(["search", "train-ai"]);
  });

  it("are stated in every robots.txt group as Content Signals, the one vocabulary robots.txt parsers know", () => {
    const groups = robotsTxt("https://kestrel.example")
      .split(/^(?=User-agent: )/m)
      .slice(1);
    expect(groups.length).toBeGreaterThan(10);
    for (const group of groups) {
      const [agent, ...lines] = group.split("\n");
      expect(lines.slice(0, 2), agent).toEqual([`Content-Signal: ${contentSignalValue}`, expect.stringMatching(/^(Dis)?allow: \//)]);
    }
  });
});
