import { inputRequired, type CallToolResult } from "@modelcontextprotocol/server";
import type { BookingDeps } from "../booking/book.ts";
import { bookingToolNames } from "../booking/names.ts";
import { listFreeTimes, type BookingOutcome, type BookingServices } from "../operations/booking.ts";
import { anyone, perform } from "../operations/operation.ts";
import { canonicalTimeZone, wallTimeAt } from "../booking/zoned-time.ts";
import type { FieldError } from "../briefs/validate.ts";
import { Refusal } from "../http/refusal.ts";
import { personProperties, type Confirmation } from "./confirmation.ts";
import { refusalResult } from "./refusal-result.ts";

/** What the person confirms before the call is booked: who they are, where the invitation goes, and when. */
export const bookingConfirmedFields = ["full_name", "work_email", "start"] as const;
type Field = (typeof bookingConfirmedFields)[number];

const notBookedWords = "The call was NOT booked:";

const notBooked = {
  decline:
    "The person declined the confirmation form, so NOTHING was booked. Do not book again unless they ask you to; they can also use the booking link in get_contact.",
  cancel:
    "The person closed the confirmation form without answering, so NOTHING was booked. Ask whether they want the call before you call book_intro_call again.",
  before:
    "The person declined this form before, so NOTHING was booked, and a later answer to the same form books nothing. If they now want the call, call book_intro_call again without requestState, and they are asked again.",
};

/** A start as the person reads it: "Tuesday 2 March, 09:00 to 09:30 (Europe/London)". */
const spoken = (start: string, end: string, zone: string) => {
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-GB", { timeZone: zone, ...options });
  const day = format({ weekday: "long", day: "numeric", month: "long" }).format(new Date(start));
  const time = format({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${day}, ${time.format(new Date(start))} to ${time.format(new Date(end))} (${zone})`;
};

/**
 * The person's choice of time: the free times of the chosen day, each as they read it, the chosen one selected (and
 * offered even when the day's free times cannot be read just now, so the form can always be shown).
 */
async function timeChoices(start: string | undefined, zone: string, deps: BookingDeps, services: BookingServices) {
  if (start === undefined || !Number.isFinite(Date.parse(start))) return [];
  const day = wallTimeAt(new Date(start), zone).date;
  const query = { from: day, to: day, time_zone: zone };
  const free = await perform(listFreeTimes, query, { caller: anyone, channel: "mcp", services }).catch(() => undefined);
  const end = new Date(Date.parse(start) + deps.lengthMinutes * 60_000).toISOString();
  const times = free?.times.some((t) => Date.parse(t.start) === Date.parse(start)) ? free.times : [{ start, end }];
  return times.map((t) => ({ const: Date.parse(t.start) === Date.parse(start) ? start : t.start, title: spoken(t.start, t.end, zone) }));
}

const valuesOf = (candidate: Record<string, unknown>) =>
  Object.fromEntries(bookingConfirmedFields.map((k) => [k, String(candidate[k])])) as Record<Field, string>;

/**
 * book_intro_call's confirmation: a form of the person's name and work e-mail (the contact form's labels) and the time,
 * chosen among the day's free times; a dry run of the booking checks each answer (the time must still be free).
 */
export function bookingConfirmation(
  body: Record<string, unknown>,
  deps: BookingDeps,
  services: BookingServices,
  dryRun: (body: Record<string, unknown>) => Promise<BookingOutcome>,
  settled: (key: string, byForm: boolean, sameAs?: Record<string, unknown>) => Promise<CallToolResult | undefined>,
): Confirmation<Field> {
  const zone = (typeof body.time_zone === "string" && canonicalTimeZone(body.time_zone)) || deps.studioTimeZone;
  return {
    tool: bookingToolNames.book,
    fields: bookingConfirmedFields,
    async form(values, problems) {
      const choices = await timeChoices(values.start, zone, deps, services);
      const message = [
        `Book a ${deps.lengthMinutes}-minute intro call with ${services.studio}? Cal.com e-mails the invitation to the work e-mail below.`,
        "Check your name, e-mail and the time, and correct them if needed. Decline to book nothing.",
        ...(problems.length > 0 ? [`Please fix: ${problems.join("; ")}.`] : []),
      ].join(" ");
      const properties = {
        ...personProperties(["full_name", "work_email"] as const, values),
        start: {
          type: "string" as const,
          title: "Time",
          description: `Times in ${zone}.`,
          oneOf: choices,
          ...(values.start !== undefined ? { default: values.start } : {}),
        },
      };
      return inputRequired.elicit({ message, requestedSchema: { type: "object", properties, required: [...bookingConfirmedFields] } });
    },
    async check(candidate) {
      // The form offers the free times of the chosen day only: a start on another day was never offered.
      const dayOf = (start: unknown) =>
        typeof start === "string" && Number.isFinite(Date.parse(start)) ? wallTimeAt(new Date(start), zone).date : undefined;
      if (candidate.start !== body.start && dayOf(candidate.start) !== dayOf(body.start)) {
        const errors: FieldError[] = [
          { field: "/start", code: "invalid_value", message: "start must be one of the times the form offers" },
        ];
        return {
          kind: "invalid",
          errors,
          answer: refusalResult(new Refusal("invalid_booking", { extensions: { errors } }), notBookedWords),
        };
      }
      try {
        await dryRun(candidate);
        return { kind: "ok", values: valuesOf(candidate) };
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        const answer = refusalResult(error, notBookedWords);
        const errors = (error.options.extensions as { errors?: FieldError[] } | undefined)?.errors;
        if (error.condition === "invalid_booking" && errors) return { kind: "invalid", errors, answer };
        return { kind: "refused", answer };
      }
    },
    declined: notBooked,
    settled,
  };
}
