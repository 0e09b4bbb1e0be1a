import { z } from "zod";
import { describe, expect, it } from "vitest";
import { contactFields } from "../../src/briefs/form-fields.ts";
import { dryRunSchema, receiptSchema } from "../../src/briefs/receipt.ts";
import { briefLimits, briefSchema, type BriefSchema } from "../../src/briefs/schema.ts";
import { validateBrief } from "../support/briefs.ts";

/**
 * What the brief publishes about itself: the contact form's fields as a person reads them, and the receipt and dry-run
 * schemas a client reads in OpenAPI and in MCP's output schema. Each is made in its test, so that a mutation run credits
 * the test that reads it.
 */
const sizes = [{ id: "launch-site", name: "Launch site", pages: { min: 1, max: 8 } }];
const schema = () => briefSchema(["launch-site"]);
const valid = { full_name: "Ada Lovelace", company_name: "Analytical Engines Ltd", work_email: "ada@engines.example" };

describe("the contact form's fields", () => {
  it("ask for the brief's required fields and the few a person fills in easily, in this order and these words", () => {
    const fields = contactFields(sizes);
    // name, label, kind, required, autocomplete
    expect(fields.map((f) => [f.name, f.label, f.kind, f.required === true, f.autocomplete])).toStrictEqual([
      ["full_name", "Your name", "text", true, "name"],
      ["company_name", "Company", "text", true, "organization"],
      ["work_email", "Work e-mail", "email", true, "email"],
      ["site_size", "Site size", "select", false, undefined],
      ["budget_range", "Budget (USD)", "select", false, undefined],
      ["message", "About the project", "textarea", false, undefined],
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    for (const name of ["full_name", "company_name", "work_email", "message"] as const)
      expect(byName[name]!.maxLength, name).toBe(briefLimits[name]);
    expect(fields.filter((f) => f.hint).map((f) => [f.name, f.hint])).toStrictEqual([
      ["work_email", "We reply to this address."],
      ["message", "What the site is for, what exists today, and any dates that matter."],
    ]);
    expect(byName.site_size!.options).toStrictEqual([
      ["", "Not sure yet"],
      ["launch-site", "Launch site (1–8 pages)"],
    ]);
    expect(byName.budget_range!.options!.map(([value, label]) => `${value}=${label}`).join("; ")).toBe(
      "=Rather not say; under_10k=Under $10,000; 10k_25k=$10,000 to $25,000; 25k_50k=$25,000 to $50,000; " +
        "50k_100k=$50,000 to $100,000; over_100k=Over $100,000; not_sure=Not sure yet",
    );
  });

  it("describe each field in the schema's own words, for an agent filling the form in", () => {
    const shape = schema().shape;
    for (const field of contactFields(sizes))
      expect(field.description, field.name).toBe(shape[field.name as keyof typeof shape].description);
  });
});

describe("the receipt and the dry run, as published", () => {
  const published = (make: (brief: BriefSchema) => z.ZodType) =>
    z.toJSONSchema(make(schema()), { io: "output", unrepresentable: "any" }) as Record<string, any>;

  it.each([
    ["the receipt", receiptSchema],
    ["the dry run", dryRunSchema],
  ])("%s describes itself and every member, and its brief has no dry_run", (_, make) => {
    const document = published(make);
    expect(document.description).toMatch(/\w{3}/);
    for (const [name, member] of Object.entries<Record<string, any>>(document.properties))
      expect(member.description, name).toMatch(/\w{3}/);
    expect(Object.keys(document.properties.brief.properties)).not.toContain("dry_run");
    expect(Object.keys(document.properties.brief.properties)).toContain("full_name");
  });

  it("ties the receipt's lead id to the ids the store makes", () => {
    const receipt = receiptSchema(schema());
    const base = { status: "received", received_at: "2026-12-03T10:00:00Z", next_steps: "…", brief: valid };
    expect(receipt.safeParse({ ...base, lead_id: "lead_0123456789abcdefghjk" }).success).toBe(true);
    for (const lead_id of ["", "lead_0123456789abcdefghji", "booking_0123456789abcdefghjk"])
      expect(receipt.safeParse({ ...base, lead_id }).success, lead_id).toBe(false);
  });
});

describe("the brief's fields at their edges", () => {
  it("names a field that is no brief field by its JSON Pointer, ~ and / escaped", () => {
    const result = validateBrief(schema(), { ...valid, "a/b~c": 1 });
    expect(result.ok ? [] : result.errors).toEqual([{ field: "/a~1b~0c", code: "unknown_field", message: "a/b~c is not a brief field" }]);
  });

  it("measures current_website without the spaces around it, and names it when it hides a character", () => {
    const longest = `https://engines.example/${"a".repeat(2048 - 24)}`;
    expect(validateBrief(schema(), { ...valid, current_website: `  ${longest}  ` })).toMatchObject({
      ok: true,
      brief: { current_website: longest },
    });
    const hidden = validateBrief(schema(), { ...valid, current_website: "https://exa\u200Bmple.com" });
    expect(hidden.ok ? [] : hidden.errors).toEqual([
      {
        field: "/current_website",
        code: "invalid_format",
        message: "current_website must not contain invisible characters (found U+200B)",
      },
    ]);
  });
});
