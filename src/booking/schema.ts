import { z } from "zod";
import { fullName, workEmail } from "../briefs/schema.ts";
import { leadIdPattern } from "../briefs/lead.ts";
import { bookingIdPattern } from "./store.ts";
import { timeZone } from "../schemas/time-zone.ts";

/**
 * The intro call's two operations as agents see them: the free-times query and the booking. These zod schemas are the
 * only definition; validation, the OpenAPI document and the agents' documentation are generated from them.
 */

/** How far ahead free times may be asked for, in days, and how many days one query may span. */
export const freeTimesLimits = { aheadDays: 60, spanDays: 21, defaultSpanDays: 7 } as const;

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
  .regex(leadIdPattern, "lead_id must be the lead_id of a brief you filed, such as lead_0123456789abcdefghjk");

export const bookingSchema = z
  .strictObject({
    full_name: fullName.describe("Name of the person the call is for; one line. Required."),
    work_email: workEmail.describe("Their work e-mail: Cal.com sends the invitation there. Required."),
    start: z.iso
      .datetime({ offset: true, error: "start must be a time with its offset, such as 2027-03-01T09:00:00-08:00, taken from free times" })
      .refine((start) => Date.parse(start) > Date.now(), "start must be in the future, as free times lists them")
      .refine(
        (start) => Date.parse(start) - Date.now() <= (freeTimesLimits.aheadDays + 1) * 86_400_000,
        `start must be within the next ${freeTimesLimits.aheadDays} days, as free times lists them`,
      )
      .describe(
        `The chosen start, exactly as free times lists it (any offset; the instant is what counts), within the next ${freeTimesLimits.aheadDays} days. Required.`,
      ),
    time_zone: timeZone.describe("The person's IANA time zone: the invitation is written in it. Required."),
    lead_id: leadId
      .optional()
      .describe("The lead_id of the brief this grant filed for this person, so the studio sees the brief with the call."),
    dry_run: z.boolean({ error: "dry_run must be true or false" }).optional().describe("Check everything, book nothing."),
  })
  .describe("The intro call to book for a person.");

export type BookingInput = z.output<typeof bookingSchema>;

const zoned = (what: string) => z.string().describe(`${what}, RFC 3339 with the offset of time_zone.`);

export const freeTimesSchema = z
  .object({
    time_zone: z.string().describe("The IANA time zone every day and time is written in."),
    from: z.iso.date().describe("First day listed."),
    to: z.iso.date().describe("Last day listed, included."),
    duration_minutes: z.number().int().describe("Length of the call."),
    times: z
      .array(z.object({ start: zoned("A free start"), end: zoned("Its end") }))
      .describe("Every free start, in order; empty when none."),
  })
  .describe("The intro call's free times on the days asked for.");

export const bookingViewSchema = z
  .object({
    booking_id: z.string().describe("This booking's id here (bk_…): to read or cancel it, with a token of the grant that made it."),
    status: z.enum(["booked", "cancelled"]),
    start: zoned("The call's start"),
    end: zoned("Its end"),
    time_zone: z.string().describe("The person's IANA time zone."),
    attendee: z.object({ full_name: z.string(), work_email: z.string() }).describe("The person the call is for."),
    lead_id: z.string().optional().describe("The brief the call is about, when one was given."),
    booked_at: z.iso.datetime().describe("When it was booked (UTC)."),
    cancelled_at: z.iso.datetime().optional().describe("When it was cancelled (UTC)."),
  })
  .describe("An intro call booked with the studio, as the grant that booked it sees it.");

export const bookingReceiptSchema = bookingViewSchema
  .extend({ next_steps: z.string().describe("What happens next, in words for the person.") })
  .describe("The booking just made (or, for a replayed Idempotency-Key, the one made before).");

export const bookingDryRunSchema = z
  .object({
    dry_run: z.literal(true),
    valid: z.literal(true),
    free: z.literal(true).describe("The start is a free time now."),
    message: z.string(),
  })
  .describe("A dry run's verdict: everything checks out and the time is free; nothing was booked.");

export const cancelSchema = z
  .strictObject({
    booking_id: z
      .string({ error: "booking_id must be a string" })
      .regex(bookingIdPattern, "booking_id must be a booking_id that book_intro_call returned, such as bk_0123456789abcdefghjk")
      .describe(bookingViewSchema.shape.booking_id.description!),
  })
  .describe("The booking to cancel.");
