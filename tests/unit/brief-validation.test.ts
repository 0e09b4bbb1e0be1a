import { describe, expect, it } from "vitest";
import { briefSchema } from "../../src/briefs/schema.ts";
import { validateBrief } from "../../src/briefs/validate.ts";

const schema = briefSchema(["launch-site", "growth-site", "platform-site"]);
const valid = { full_name: "Ada Lovelace", company_name: "Analytical Engines Ltd", work_email: "ada@Engines.EXAMPLE" };

describe("validateBrief", () => {
  it("accepts the three required fields and normalises them", () => {
    const result = validateBrief(schema, {
      full_name: "  Ada   Lovelace ",
      company_name: "Analytical Engines Ltd",
      work_email: " ada@Engines.EXAMPLE ",
    });
    expect(result).toEqual({
      ok: true,
      dryRun: false,
      brief: { full_name: "Ada Lovelace", company_name: "Analytical Engines Ltd", work_email: "ada@engines.example" },
    });
  });

  it("accepts every optional field within bounds, and dry_run", () => {
    const result = validateBrief(schema, {
      ...valid,
      phone: "+1 (503) 555-0100",
      project_type: "redesign",
      site_size: "growth-site",
      budget_range: "25k_50k",
      timeline: "within_3_months",
      launch_date: `${new Date().getUTCFullYear() + 1}-03-01`,
      current_website: "https://engines.example",
      page_count: 24,
      message: "Line one.\r\nLine two.",
      time_zone: "Europe/London",
      dry_run: true,
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.dryRun).toBe(true);
      expect(result.brief.message).toBe("Line one.\nLine two.");
      expect(result.brief).not.toHaveProperty("dry_run");
    }
  });

  it("names every offending field at once, with a JSON Pointer and a stable code", () => {
    const result = validateBrief(schema, {
      company_name: "X\r\nBcc: victim@example.com",
      work_email: "not-an-email",
      site_size: "mega-site",
      page_count: 2.5,
      launch_date: "2001-01-01",
      budget: 5000,
      constructor: "x",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byField = Object.fromEntries(result.errors.map((e) => [e.field, e.code]));
    expect(byField).toEqual({
      "/full_name": "required",
      "/company_name": "invalid_format",
      "/work_email": "invalid_format",
      "/site_size": "invalid_value",
      "/page_count": "invalid_type",
      "/launch_date": "invalid_format",
      "/budget": "unknown_field",
      "/constructor": "unknown_field",
    });
  });

  it("reports a __proto__ key sent as JSON as an unknown field", () => {
    const body = JSON.parse(`{"full_name":"A","company_name":"B","work_email":"a@b.example","__proto__":{"x":1}}`) as Record<
      string,
      unknown
    >;
    const result = validateBrief(schema, body);
    expect(result).toMatchObject({ ok: false, errors: [{ field: "/__proto__", code: "unknown_field" }] });
  });

  it("bounds sizes and refuses control characters", () => {
    const result = validateBrief(schema, { ...valid, full_name: "x".repeat(121), message: "a\u0000b", phone: "call me" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.field, e.code])).toEqual([
      ["/full_name", "too_long"],
      ["/phone", "invalid_format"],
      ["/message", "invalid_format"],
    ]);
  });

  it.each([
    ["a right-to-left override", "Ada \u202Egnp.exe"],
    ["a left-to-right isolate", "Ada \u2066Lovelace\u2069"],
    ["a zero-width space", "Ada\u200BLovelace"],
    ["a byte order mark", "\uFEFFAda"],
    ["an invisible separator", "Ada\u2063Lovelace"],
  ])("refuses %s in one-line fields, as it refuses control characters", (_, text) => {
    for (const field of ["full_name", "company_name"]) {
      const result = validateBrief(schema, { ...valid, [field]: text });
      expect(result).toMatchObject({ ok: false, errors: [{ field: `/${field}`, code: "invalid_format" }] });
    }
  });

  it("keeps the joiners Persian and Indic names need", () => {
    const result = validateBrief(schema, { ...valid, full_name: "\u0645\u06cc\u200c\u0631\u0648\u062f" });
    expect(result.ok).toBe(true);
  });

  it("keeps unicode and HTML as text", () => {
    const result = validateBrief(schema, { ...valid, full_name: "Zoë <b>Łukasz</b> 東京", message: "<script>alert(1)</script>" });
    expect(result).toMatchObject({ ok: true, brief: { full_name: "Zoë <b>Łukasz</b> 東京" } });
  });
});
