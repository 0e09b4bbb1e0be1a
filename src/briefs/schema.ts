import { z } from "zod";
import { timeZone } from "../schemas/time-zone.ts";
import { controlCharacters, invisibleCharacter, notTextCharacter, replacementCharacter, spaceOfAnyWidth } from "./visible-text.ts";

/**
 * The project brief: the one write. This zod schema is the only definition; validation, the OpenAPI document,
 * the MCP tool's input schema, the A2A skill and the contact form are generated from it.
 */

/**
 * What is wrong with the characters of `s`, in words; undefined when nothing is. Only text (visible-text.ts: no private
 * use, unassigned or noncharacter code point, no lone surrogate), and nothing a person cannot see beyond what writing
 * needs (ZWNJ and ZWJ where a script's shaping or an emoji sequence needs them, emoji presentation selectors, Mongolian
 * variation selectors, the three subdivision flags), in every text field; the code point found is named, so that it can
 * be found and removed. A code point that is no text is not called invisible: a new emoji Node does not know yet is
 * refused for what it is.
 */
const unseen = (label: string, s: string) => {
  if (s.includes(replacementCharacter))
    return `${label} must not contain U+FFFD, the replacement character: it stands where bytes that were not UTF-8 were lost on the way, so the text is not what was written`;
  const notText = notTextCharacter(s);
  if (notText !== undefined)
    return `${label} must contain only characters of text, not private-use, unassigned, noncharacter or lone surrogate code points (found ${notText})`;
  const invisible = invisibleCharacter(s);
  if (invisible !== undefined) return `${label} must not contain invisible characters (found ${invisible})`;
  return undefined;
};

const visibleOnly = (label: string) =>
  [
    (s: string) => unseen(label, s) === undefined,
    { error: (issue: { input: unknown }) => unseen(label, String(issue.input)), abort: true },
  ] as const;

/**
 * An RFC 2047 encoded word (`=?utf-8?q?Urgent=3A_approved?=`): a mail client decodes one in a header, so a name or a
 * company written as one would reach the subject line as text the validator never saw.
 */
const encodedWord = /=\?[^?\s]*\?[bq]\?[^?\s]*\?=/i;

/**
 * The free text fields: no control characters (one-line fields: no line breaks, and no encoded word, since they can
 * reach a header), only text, nothing invisible.
 */
const text = (label: string, { oneLine }: { oneLine: boolean }) =>
  z
    .string({ error: `${label} must be a string` })
    .refine((s) => !controlCharacters.test(s) && !(oneLine && /[\r\n]/.test(s)), {
      message: oneLine ? `${label} must be one line of text without control characters` : `${label} must not contain control characters`,
      abort: true,
    })
    .refine((s) => !(oneLine && encodedWord.test(s)), {
      message: `${label} must not contain an RFC 2047 encoded word (=?charset?B or Q?text?=): an e-mail header would show it decoded`,
      abort: true,
    })
    .refine(...visibleOnly(label));

const singleLine = (label: string, max: number) =>
  text(label, { oneLine: true })
    .transform((s) => s.trim().replace(/\s+/g, " "))
    .pipe(z.string().min(1, `${label} must not be empty`).max(max, `${label} must be at most ${max} characters`));

export const projectTypes = ["new_site", "redesign", "migration", "performance", "accessibility", "care_plan", "other"] as const;
export const budgetRanges = ["under_10k", "10k_25k", "25k_50k", "50k_100k", "over_100k", "not_sure"] as const;
export const timelines = ["asap", "within_3_months", "3_to_6_months", "flexible"] as const;

/** Field lengths and bounds; the descriptions, the contact form and the documentation are written from these. */
export const briefLimits = {
  full_name: 120,
  company_name: 160,
  work_email: 254,
  phone: 40,
  current_website: 2048,
  page_count: 10_000,
  message: 5000,
  maxLaunchYears: 3,
} as const;

/** The person's name, as every write that names a person takes it (a brief, a booking). */
export const fullName = singleLine("full_name", briefLimits.full_name);

/** The person's work e-mail, as every write takes it: the domain lower-cased, the local part as written. */
export const workEmail = z
  .string({ error: "work_email must be a string" })
  .trim()
  .refine(...visibleOnly("work_email"))
  .max(briefLimits.work_email, `work_email must be at most ${briefLimits.work_email} characters`)
  .pipe(
    // overwrite, not transform: the output stays a described e-mail string in the generated JSON Schemas.
    z.email({ error: "work_email must be an e-mail address such as ada@example.com" }).overwrite((email) => {
      const at = email.lastIndexOf("@");
      return `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
    }),
  );

/** What a brief is, in one line: the schema's own description, and the first words of every tool that sends one. */
export const briefDescription = "A project brief. A person at the studio answers it by e-mail.";

/** Today's date in UTC as YYYY-MM-DD, for launch dates. */
const today = () => new Date().toISOString().slice(0, 10);

/** The brief, given the ids of the site sizes on offer (content/offers). */
export function briefSchema(siteSizes: readonly [string, ...string[]]) {
  return z
    .strictObject({
      full_name: fullName.describe(`Name of the person the brief is for; one line, at most ${briefLimits.full_name} characters. Required.`),
      company_name: singleLine("company_name", briefLimits.company_name).describe(
        `Company of that person; one line, at most ${briefLimits.company_name} characters. Required.`,
      ),
      work_email: workEmail.describe(
        `Work e-mail of that person, at most ${briefLimits.work_email} characters; a person at the studio replies to it. Required.`,
      ),
      phone: singleLine("phone", briefLimits.phone)
        .pipe(z.string().regex(/^\+?[0-9 ().-]{5,}$/, "phone may contain digits, spaces, + ( ) . and -"))
        .optional()
        .describe(
          `Phone number with country code for numbers outside the US: digits, spaces, + ( ) . -; at most ${briefLimits.phone} characters.`,
        ),
      project_type: z
        .enum(projectTypes, { error: `project_type must be one of ${projectTypes.join(", ")}` })
        .optional()
        .describe("What kind of project this is."),
      site_size: z
        .enum(siteSizes, { error: `site_size must be one of ${siteSizes.join(", ")} (see /api/v1/offers)` })
        .optional()
        .describe("The site size from the offers resource that fits best, if known."),
      budget_range: z
        .enum(budgetRanges, { error: `budget_range must be one of ${budgetRanges.join(", ")}` })
        .optional()
        .describe("Budget in US dollars: under_10k, 10k_25k, 25k_50k, 50k_100k, over_100k or not_sure."),
      timeline: z
        .enum(timelines, { error: `timeline must be one of ${timelines.join(", ")}` })
        .optional()
        .describe("When the work should start."),
      launch_date: z.iso
        .date({ error: "launch_date must be a date such as 2027-03-01" })
        .refine((d) => d >= today(), "launch_date must not be in the past")
        .refine(
          (d) => Number(d.slice(0, 4)) <= new Date().getUTCFullYear() + briefLimits.maxLaunchYears,
          `launch_date must be within ${briefLimits.maxLaunchYears} years`,
        )
        .optional()
        .describe(`A launch date that matters, as YYYY-MM-DD, not in the past and within ${briefLimits.maxLaunchYears} years.`),
      current_website: z
        .string({ error: "current_website must be a string" })
        .trim()
        .refine(...visibleOnly("current_website"))
        .max(briefLimits.current_website, `current_website must be at most ${briefLimits.current_website} characters`)
        .pipe(z.url({ protocol: /^https?$/, error: "current_website must be an http(s) URL such as https://example.com" }))
        .optional()
        .describe(`The current website, an http(s) URL of at most ${briefLimits.current_website} characters.`),
      page_count: z
        .number({ error: "page_count must be a number" })
        .int("page_count must be a whole number")
        .min(1, "page_count must be at least 1")
        .max(briefLimits.page_count, `page_count must be at most ${briefLimits.page_count}`)
        .optional()
        .describe(`Roughly how many pages the site needs, 1 to ${briefLimits.page_count}.`),
      message: text("message", { oneLine: false })
        .transform((s) =>
          s
            .replace(/\r\n?/g, "\n")
            .replace(spaceOfAnyWidth, " ")
            .replace(/[ \t]+$/gm, "")
            .trim(),
        )
        .pipe(
          z
            .string()
            .min(1, "message must not be empty when given")
            .max(briefLimits.message, `message must be at most ${briefLimits.message} characters`),
        )
        .optional()
        .describe(
          `About the project: what the site is for, what exists today, dates that matter. Several lines allowed, at most ${briefLimits.message} characters.`,
        ),
      time_zone: timeZone.optional().describe("The person's time zone, for scheduling the intro call."),
      dry_run: z
        .boolean({ error: "dry_run must be true or false" })
        .optional()
        .describe(
          "When true, the brief is authenticated and validated exactly as a real one, then nothing is filed and nobody is e-mailed.",
        ),
    })
    .describe(briefDescription);
}

export type BriefSchema = ReturnType<typeof briefSchema>;
/** A validated, normalised brief. */
export type Brief = Omit<z.output<BriefSchema>, "dry_run">;
