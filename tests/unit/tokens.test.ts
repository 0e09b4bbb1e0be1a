import { describe, expect, it } from "vitest";
import { countTokens } from "../../src/twins/tokens.ts";

describe("countTokens", () => {
  it("counts o200k_base tokens, not characters", () => {
    // Reference counts of OpenAI's o200k_base encoding.
    expect(countTokens("Hello, world!")).toBe(4);
    expect(countTokens("# Offers\n\nThree sizes.\n")).toBe(6);
    expect(countTokens("")).toBe(0);
  });
});
