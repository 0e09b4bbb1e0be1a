import { z } from "zod";
import { fullName, workEmail } from "../briefs/schema.ts";
import { isTimeZone } from "./zoned-time.ts";

/**
 * The intro call's two operations as agents see them: the free-times query and the booking. These zod schemas are the
 * only definition; validation, the OpenAPI document and the agents' documentation are generated from them.
 */

/** How far ahead free times may be asked for, in days, and how many days one query may span. */
export const freeTimesLimits = { aheadDays: 60, spanDays: 21, defaultSpanDays: 7 } as const;

const timeZone = z
  .string({ error: "time_zone must be a string" })
  .refine(isTimeZone, "time_zone must be an IANA time zone such as Europe/Berlin, or UTC");

const day = (name: string) => z.iso.date({ error: `${name} must be a date such as 2027-03-01` });

export const freeTimesQuerySchema = z
  .strictObject({
    from: day("from").optional().describe("First day, YYYY-MM-DD in time_zone; default today."),
    to: day("to")
      .optional()
      .describe(
        `Last day, included; at most ${freeTimesLimits.spanDays} days after from; default ${freeTimesLimits.defaultSpanDays} days after it.`,
      ),
    time_zone: timeZone.optional().describe("IANA time zone the days and times are written in; default the studio's."),
  })
  .describe("Which days to list free times for.");

export type FreeTimesQuery = z.output<typeof freeTimesQuerySchema>;

const leadId = z
  .string({ error: "lead_id must be a string" })
  .regex(/^lead_[0-9a-hjkmnp-tv-z]{20}$/, "lead_id must be the lead_id of a brief you filed, such as lead_0123456789abcdefghjk");

export const bookingSchema = z
  .strictObject({
    full_name: fullName.describe("Name of the person the call is for; one line. Required."),
    work_email: workEmail.describe("Their work e-mail: Cal.com sends the invitation there. Required."),
    start: z.iso
      .datetime({ offset: true, error: "start must be a time with its offset, such as 2027-03-01T09:00:00-08:00, taken from free times" })
      .describe("The chosen start, exactly as free times lists it (any offset; the instant is what counts). Required."),
    time_zone: timeZone.describe("The person's IANA time zone: the invitation is written in it. Required."),
    lead_id: leadId
      .optional()
      .describe("The lead_id of the brief this grant filed for this person, so the studio sees the brief with the call."),
    dry_run: z.boolean({ error: "dry_run must be true or false" }).optional().describe("Check everything, book nothing."),
  })
  .describe("The intro call to book for a person.");

export type BookingInput = z.output<typeof bookingSchema>;
