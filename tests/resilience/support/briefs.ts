import fc from "fast-check";
import { budgetRanges, projectTypes, timelines } from "../../../src/briefs/schema.ts";
import { fakeLines, mutated, sprinkled } from "./fuzz.ts";

let counter = 0;
const words = fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,30}[A-Za-z]$/);
const grapheme = fc.string({ unit: "grapheme", maxLength: 200 }).map((s) => s.replace(/\p{Cc}/gu, ""));

/**
 * A brief, valid but for the hidden characters sprinkled into its text now and then, with one field mutated (replaced by
 * any JSON value, removed, or an unknown field added); mostly dry runs, so the fuzzer checks everything and files little.
 */
export const briefBody = mutated(
  {
    full_name: fc.oneof({ weight: 4, arbitrary: words }, { weight: 1, arbitrary: sprinkled(words) }),
    company_name: fc.constant(null).map(() => `Fuzz Engines ${++counter}`),
    // fast-check's addresses are mostly ones zod refuses (quoted or odd local parts): plain ones too, so briefs get filed.
    work_email: fc.oneof(fc.emailAddress(), fc.stringMatching(/^[a-z][a-z0-9.+-]{0,20}[a-z0-9]@engines\.example$/)),
    phone: fc.constantFrom("+44 20 7946 0000", "12345", "+1 (555) 010-9999"),
    project_type: fc.constantFrom(...projectTypes),
    site_size: fc.constantFrom("launch-site", "growth-site", "platform-site"),
    budget_range: fc.constantFrom(...budgetRanges),
    timeline: fc.constantFrom(...timelines),
    launch_date: fc.constantFrom("2027-03-01", "2027-12-31"),
    current_website: fc.oneof(
      { weight: 4, arbitrary: fc.webUrl({ validSchemes: ["https"] }) },
      { weight: 1, arbitrary: sprinkled(fc.webUrl({ validSchemes: ["https"] })) },
    ),
    page_count: fc.integer({ min: 1, max: 500 }),
    message: fc.oneof(
      { weight: 2, arbitrary: grapheme },
      { weight: 1, arbitrary: sprinkled(grapheme) },
      // Lines that would pass for the studio's own in its e-mail, among the person's.
      { weight: 1, arbitrary: fc.array(fc.oneof(fakeLines, grapheme), { minLength: 1, maxLength: 6 }).map((lines) => lines.join("\n")) },
    ),
    time_zone: fc.constantFrom("Europe/London", "UTC", "America/New_York"),
    dry_run: fc.constant(null).map(() => ++counter % 10 !== 0),
  },
  ["idempotency_key", "skill"],
);
