import { describe, expect, it } from "vitest";
import { conditionOf } from "../../src/http/conditions.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { refusalResult } from "../../src/mcp/refusal-result.ts";

/** A refusal as an MCP tool error (src/mcp/refusal-result.ts): its words, each field on a line, then its data as JSON. */
const textOf = (refusal: Refusal) => (refusalResult(refusal, "Nothing was done:").content[0] as { text: string }).text;

describe("refusalResult", () => {
  it("names each field to fix on its own line, between the words and the data", () => {
    const errors = [
      { field: "/full_name", code: "required", message: "full_name is required" },
      { field: "/start", code: "invalid_format", message: "start must be a date-time" },
    ];
    const refusal = new Refusal("invalid_booking", { detail: "2 fields are missing or invalid.", extensions: { errors } });
    expect(textOf(refusal)).toBe(
      `Nothing was done: 2 fields are missing or invalid. ${conditionOf("invalid_booking").resolution}\n` +
        "- /full_name (required): full_name is required\n- /start (invalid_format): start must be a date-time\n\n" +
        JSON.stringify({ code: "invalid_booking", errors }, null, 2),
    );
    expect(refusalResult(refusal, "Nothing was done:").isError).toBe(true);
  });

  it("says the refusal's own resolution where it has one, and no field lines where it names none", () => {
    const refusal = new Refusal("not_found", { detail: "No such booking.", resolution: "Check the booking_id." });
    expect(textOf(refusal)).toBe(
      `Nothing was done: No such booking. Check the booking_id.\n\n${JSON.stringify({ code: "not_found" }, null, 2)}`,
    );
  });
});
