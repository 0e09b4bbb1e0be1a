import fc from "fast-check";
import { budgetRanges, projectTypes, timelines } from "../../../src/briefs/schema.ts";
import { mutated } from "./fuzz.ts";

let counter = 0;
const words = fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,30}[A-Za-z]$/);

/**
 * A valid brief with one field mutated (replaced by any JSON value, removed, or an unknown field added); mostly dry runs,
 * so the fuzzer checks everything and files little.
 */
export const briefBody = mutated(
  {
    full_name: words,
    company_name: fc.constant(null).map(() => `Fuzz Engines ${++counter}`),
    work_email: fc.emailAddress(),
    phone: fc.constantFrom("+44 20 7946 0000", "12345", "+1 (555) 010-9999"),
    project_type: fc.constantFrom(...projectTypes),
    site_size: fc.constantFrom("launch-site", "growth-site", "platform-site"),
    budget_range: fc.constantFrom(...budgetRanges),
    timeline: fc.constantFrom(...timelines),
    launch_date: fc.constantFrom("2027-03-01", "2027-12-31"),
    current_website: fc.webUrl({ validSchemes: ["https"] }),
    page_count: fc.integer({ min: 1, max: 500 }),
    message: fc.string({ unit: "grapheme", maxLength: 200 }).map((s) => s.replace(/\p{Cc}/gu, "")),
    time_zone: fc.constantFrom("Europe/London", "UTC", "America/New_York"),
    dry_run: fc.constant(null).map(() => ++counter % 10 !== 0),
  },
  ["idempotency_key", "skill"],
);
