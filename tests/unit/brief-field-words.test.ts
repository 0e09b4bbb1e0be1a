import { afterEach, describe, expect, it, vi } from "vitest";
import { briefSchema } from "../../src/briefs/schema.ts";
import { validateBrief } from "../support/briefs.ts";

/**
 * The words a client reads for each refused field of a brief, exactly: REST's problem, MCP's tool error, A2A's task and
 * the contact form all quote them. The schema is made in each test, so that a mutation run credits the test that reads
 * it (a module-level schema is no test's).
 */
const schema = () => briefSchema(["launch-site", "growth-site"]);
const valid = { full_name: "Ada Lovelace", company_name: "Analytical Engines Ltd", work_email: "ada@engines.example" };

/** The field errors of a body, or the brief it became. */
const refusalOf = (body: Record<string, unknown>) => {
  const result = validateBrief(schema(), body);
  return result.ok ? result.brief : result.errors;
};
const accepted = (extra: Record<string, unknown>) => validateBrief(schema(), { ...valid, ...extra });

afterEach(() => {
  vi.useRealTimers();
});

describe("the words of each refused brief field", () => {
  it("names each required field that is missing", () => {
    expect(refusalOf({})).toEqual([
      { field: "/full_name", code: "required", message: "full_name is required" },
      { field: "/company_name", code: "required", message: "company_name is required" },
      { field: "/work_email", code: "required", message: "work_email is required" },
    ]);
  });

  it.each([
    ["full_name", 5, "full_name must be a string"],
    ["company_name", null, "company_name must be a string"],
    ["work_email", 7, "work_email must be a string"],
    ["phone", 5035550100, "phone must be a string"],
    ["current_website", true, "current_website must be a string"],
    ["message", ["hello"], "message must be a string"],
    ["page_count", "12", "page_count must be a number"],
    ["dry_run", "yes", "dry_run must be true or false"],
  ])("refuses a %s of the wrong type", (field, value, message) => {
    expect(refusalOf({ ...valid, [field]: value })).toEqual([{ field: `/${field}`, code: "invalid_type", message }]);
  });

  it("refuses a name and a company that are only spaces, or too long", () => {
    expect(refusalOf({ ...valid, full_name: " \t ", company_name: "x".repeat(161) })).toEqual([
      { field: "/full_name", code: "too_short", message: "full_name must not be empty" },
      { field: "/company_name", code: "too_long", message: "company_name must be at most 160 characters" },
    ]);
    expect(refusalOf({ ...valid, full_name: "x".repeat(121), company_name: "" })).toEqual([
      { field: "/full_name", code: "too_long", message: "full_name must be at most 120 characters" },
      { field: "/company_name", code: "too_short", message: "company_name must not be empty" },
    ]);
  });

  it("takes a name and a company at their longest, counted after their spaces are folded", () => {
    const brief = accepted({ full_name: ` ${"x".repeat(60)}   ${"y".repeat(59)} `, company_name: "c".repeat(160) });
    expect(brief).toMatchObject({ ok: true, brief: { full_name: `${"x".repeat(60)} ${"y".repeat(59)}`, company_name: "c".repeat(160) } });
  });

  it("refuses a line break or a control character in a one-line field, and a control character in the message", () => {
    expect(refusalOf({ ...valid, full_name: "Ada\nLovelace", company_name: "Engines\rLtd", phone: "+44\u000720" })).toEqual([
      { field: "/full_name", code: "invalid_format", message: "full_name must be one line of text without control characters" },
      { field: "/company_name", code: "invalid_format", message: "company_name must be one line of text without control characters" },
      { field: "/phone", code: "invalid_format", message: "phone must be one line of text without control characters" },
    ]);
    expect(refusalOf({ ...valid, message: "Hello\u0007there" })).toEqual([
      { field: "/message", code: "invalid_format", message: "message must not contain control characters" },
    ]);
  });

  it("refuses an encoded word in a one-line field in exactly these words", () => {
    const words = (field: string) =>
      `${field} must not contain an RFC 2047 encoded word (=?charset?B or Q?text?=): an e-mail header would show it decoded`;
    expect(refusalOf({ ...valid, full_name: "=?utf-8?Q?Ada?=", phone: "=?x?b?MTIz?=" })).toEqual([
      { field: "/full_name", code: "invalid_format", message: words("full_name") },
      { field: "/phone", code: "invalid_format", message: words("phone") },
    ]);
  });

  it.each([
    ["a lower-case q", "=?utf-8?q?Ada?="],
    ["an upper-case B", "=?UTF-8?B?QWRh?="],
    ["no charset", "=??q?Ada?="],
    ["no text", "=?utf-8?q??="],
    ["words around it", "Ada =?utf-8?q?x?= Lovelace"],
  ])("refuses an encoded word with %s in a name", (_, name) => {
    expect(refusalOf({ ...valid, full_name: name })).toMatchObject([{ field: "/full_name", message: expect.stringContaining("RFC 2047") }]);
  });

  it.each([
    ["a space in the charset", "=?utf 8?q?Ada?="],
    ["a space in the text", "=?utf-8?q?Ada Lovelace?="],
    ["an encoding that is neither B nor Q", "=?utf-8?x?Ada?="],
    ["a question mark in the charset", "=?u?t?q?Ada?="],
    ["no closing", "=?utf-8?q?Ada"],
  ])("takes a name that only looks like an encoded word: %s", (_, name) => {
    expect(accepted({ full_name: name }).ok).toBe(true);
  });

  it("refuses a phone number of other characters or too short, and takes the shortest and the usual ones", () => {
    const words = "phone may contain digits, spaces, + ( ) . and -";
    for (const phone of ["call me", "1234", "x12345", "12345x", "++12345", "12345+", "1234/5"])
      expect(refusalOf({ ...valid, phone }), phone).toEqual([{ field: "/phone", code: "invalid_format", message: words }]);
    for (const phone of ["12345", "+12345", "+1 (503) 555-0100", "030.1234.5678", "+44 20 7946 0958"])
      expect(accepted({ phone }), phone).toMatchObject({ ok: true, brief: { phone } });
    expect(refusalOf({ ...valid, phone: "1".repeat(41) })).toEqual([
      { field: "/phone", code: "too_long", message: "phone must be at most 40 characters" },
    ]);
  });

  it("names the choices of each choice field it refuses, the site sizes on offer included", () => {
    expect(refusalOf({ ...valid, project_type: "x", site_size: "mega-site", budget_range: "x", timeline: "x" })).toEqual([
      {
        field: "/project_type",
        code: "invalid_value",
        message: "project_type must be one of new_site, redesign, migration, performance, accessibility, care_plan, other",
      },
      { field: "/site_size", code: "invalid_value", message: "site_size must be one of launch-site, growth-site (see /api/v1/offers)" },
      {
        field: "/budget_range",
        code: "invalid_value",
        message: "budget_range must be one of under_10k, 10k_25k, 25k_50k, 50k_100k, over_100k, not_sure",
      },
      { field: "/timeline", code: "invalid_value", message: "timeline must be one of asap, within_3_months, 3_to_6_months, flexible" },
    ]);
  });

  it("refuses a work e-mail without a domain, or too long, and lower-cases only its domain", () => {
    const words = "work_email must be an e-mail address such as ada@example.com";
    for (const work_email of ["ada", "ada@", "@engines.example", "ada@engines"])
      expect(refusalOf({ ...valid, work_email }), work_email).toEqual([{ field: "/work_email", code: "invalid_format", message: words }]);
    expect(refusalOf({ ...valid, work_email: `${"a".repeat(243)}@engines.example` })).toEqual([
      { field: "/work_email", code: "too_long", message: "work_email must be at most 254 characters" },
    ]);
    expect(accepted({ work_email: ` Ada.Lovelace@Engines.Example ` })).toMatchObject({
      ok: true,
      brief: { work_email: "Ada.Lovelace@engines.example" },
    });
  });

  it("refuses a current website that is no http(s) URL, or too long", () => {
    const words = "current_website must be an http(s) URL such as https://example.com";
    for (const current_website of ["engines.example", "ftp://engines.example", "xhttps://engines.example", "httpss://engines.example"])
      expect(refusalOf({ ...valid, current_website }), current_website).toEqual([
        { field: "/current_website", code: "invalid_format", message: words },
      ]);
    expect(refusalOf({ ...valid, current_website: `https://engines.example/${"a".repeat(2025)}` })).toEqual([
      { field: "/current_website", code: "too_long", message: "current_website must be at most 2048 characters" },
    ]);
    for (const current_website of ["http://engines.example", "https://engines.example/about"])
      expect(accepted({ current_website: ` ${current_website} ` }), current_website).toMatchObject({
        ok: true,
        brief: { current_website },
      });
  });

  it("refuses a page count that is no whole number from 1 to 10,000", () => {
    expect(refusalOf({ ...valid, page_count: 2.5 })).toEqual([
      { field: "/page_count", code: "invalid_type", message: "page_count must be a whole number" },
    ]);
    expect(refusalOf({ ...valid, page_count: 0 })).toEqual([
      { field: "/page_count", code: "too_short", message: "page_count must be at least 1" },
    ]);
    expect(refusalOf({ ...valid, page_count: 10_001 })).toEqual([
      { field: "/page_count", code: "too_long", message: "page_count must be at most 10000" },
    ]);
    for (const page_count of [1, 10_000])
      expect(accepted({ page_count }), String(page_count)).toMatchObject({ ok: true, brief: { page_count } });
  });

  it("refuses a message that is empty once trimmed, or too long", () => {
    expect(refusalOf({ ...valid, message: " \n\t " })).toEqual([
      { field: "/message", code: "too_short", message: "message must not be empty when given" },
    ]);
    expect(refusalOf({ ...valid, message: "x".repeat(5001) })).toEqual([
      { field: "/message", code: "too_long", message: "message must be at most 5000 characters" },
    ]);
    expect(accepted({ message: ` ${"x".repeat(5000)} ` })).toMatchObject({ ok: true, brief: { message: "x".repeat(5000) } });
  });

  it("writes a message's old Mac line breaks as new lines", () => {
    expect(accepted({ message: "One\rTwo\r\n\rThree" })).toMatchObject({ ok: true, brief: { message: "One\nTwo\n\nThree" } });
  });
});

describe("the brief's descriptions", () => {
  it("describe every field to the agents and forms that read them, the required ones as required, with each limit", () => {
    const shape = schema().shape;
    const descriptions = Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, field.description ?? ""]));
    for (const [name, description] of Object.entries(descriptions)) expect(description.length, name).toBeGreaterThan(20);
    expect(Object.keys(descriptions).filter((name) => descriptions[name]!.endsWith(" Required."))).toEqual([
      "full_name",
      "company_name",
      "work_email",
    ]);
    expect(descriptions).toMatchObject({
      full_name: expect.stringContaining("at most 120 characters"),
      company_name: expect.stringContaining("at most 160 characters"),
      work_email: expect.stringContaining("at most 254 characters"),
      phone: expect.stringContaining("at most 40 characters"),
      launch_date: expect.stringContaining("within 3 years"),
      current_website: expect.stringContaining("at most 2048 characters"),
      page_count: expect.stringContaining("1 to 10000"),
      message: expect.stringContaining("at most 5000 characters"),
    });
    expect(schema().description).toBe("A project brief. A person at the studio answers it by e-mail.");
  });
});

describe("a launch date", () => {
  const on = (iso: string) => vi.useFakeTimers({ toFake: ["Date"], now: new Date(iso) });

  it("may be today, late in the day, but not yesterday", () => {
    on("2026-12-02T23:59:00Z");
    expect(accepted({ launch_date: "2026-12-02" })).toMatchObject({ ok: true, brief: { launch_date: "2026-12-02" } });
    expect(refusalOf({ ...valid, launch_date: "2026-12-01" })).toEqual([
      { field: "/launch_date", code: "invalid_format", message: "launch_date must not be in the past" },
    ]);
  });

  it("may be any day of the third year from now, not the fourth", () => {
    on("2026-01-01T00:00:00Z");
    expect(accepted({ launch_date: "2029-12-31" })).toMatchObject({ ok: true, brief: { launch_date: "2029-12-31" } });
    expect(refusalOf({ ...valid, launch_date: "2030-01-01" })).toEqual([
      { field: "/launch_date", code: "invalid_format", message: "launch_date must be within 3 years" },
    ]);
  });

  it("must be a date written as YYYY-MM-DD", () => {
    on("2026-12-02T12:00:00Z");
    for (const launch_date of ["2027-13-01", "1 March 2027", "2027-03-01T00:00:00Z"])
      expect(refusalOf({ ...valid, launch_date }), launch_date).toMatchObject([
        { field: "/launch_date", code: "invalid_format", message: "launch_date must be a date such as 2027-03-01" },
      ]);
  });
});
