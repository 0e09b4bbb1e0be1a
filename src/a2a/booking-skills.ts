import { bookingScope, bookingSkillIds } from "../booking/names.ts";
import { bookingSchema, cancelSchema, freeTimesQuerySchema } from "../booking/schema.ts";
import { idempotencyKeyMaxLength } from "../briefs/limits.ts";
import { fieldNames, fieldsOf } from "./skills.ts";

/**
 * The intro call's skills, on the card only where the build says agents can book: free times (a read, answered with a
 * message) and booking and cancelling (tasks, with svc:brief, as the brief). Their descriptions come from the schemas.
 */
export type BookingSkillId = (typeof bookingSkillIds)[keyof typeof bookingSkillIds];

/** Words in a text message that select free times (routing weighs them just before contact's: route.ts). */
export const freeTimesKeywords = ["free", "times", "slot", "slots", "available", "availability", "schedule"];

const naming = 'Name the skill in message.metadata.skillId or as "skill" in the data part.';
const tokenNeeded = `Needs an OAuth access token with the scope ${bookingScope}, as the brief does.`;

function freeTimesDescription() {
  const fields = fieldsOf(freeTimesQuerySchema);
  return (
    `The intro call's free times, a week from today in the studio's time zone unless the data part says otherwise (optional ` +
    `${fieldNames(fields, false)}, as GET /api/v1/free-times takes them). Answers with a data part holding the same JSON as ` +
    "GET /api/v1/free-times, and a short text part; an invalid field is named in the text, with the errors array in the data " +
    'part (code "invalid_query"). No token needed.'
  );
}

function bookDescription() {
  const fields = fieldsOf(bookingSchema);
  return (
    "Book the intro call for the person you act for: a real call with a person at the studio, and Cal.com e-mails them the " +
    "invitation. Book only a time the person chose and confirmed, with their name and e-mail. Send one data part with the REST " +
    `field names (as POST /api/v1/bookings): required ${fieldNames(fields, true)}; optional ${fieldNames(fields, false)}, and ` +
    `idempotency_key (the REST Idempotency-Key, 1 to ${idempotencyKeyMaxLength} visible ASCII characters) to retry without booking ` +
    `twice. Take start from the ${bookingSkillIds.freeTimes} skill. ${naming} ${tokenNeeded} Missing or invalid fields put the ` +
    "task in input-required, naming each field; a time that is not free puts it in input-required with fresh free times of " +
    'that day (code "slot_taken"): reply in the task with another start. A booking completes the task with a "booking" ' +
    'artifact (booking_id, next_steps); a dry run with a "dry-run" artifact. Past the grant\'s bookings quota the task is ' +
    "rejected; when the calendar does not answer it fails with retry_after."
  );
}

function cancelDescription() {
  const fields = fieldsOf(cancelSchema);
  return (
    `Cancel an intro call booked with the same grant: one data part with ${fieldNames(fields, true)}, as a booking returned ` +
    `it. ${naming} ${tokenNeeded} Completes the task with the cancelled booking as a "booking" artifact; cancelling again ` +
    'answers the same. A booking of another grant fails exactly as an unknown id (code "not_found").'
  );
}

export interface BookingSkill {
  id: BookingSkillId;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  /** The scope it needs; none for a read. */
  scope: typeof bookingScope | undefined;
}

export const bookingSkills: BookingSkill[] = [
  {
    id: bookingSkillIds.freeTimes,
    name: "Intro call free times",
    description: freeTimesDescription(),
    tags: ["intro call", "free times", "calendar"],
    examples: [
      "Which times are free for an intro call next week?",
      JSON.stringify({ skill: bookingSkillIds.freeTimes, time_zone: "Europe/Berlin" }),
    ],
    scope: undefined,
  },
  {
    id: bookingSkillIds.book,
    name: "Book the intro call",
    description: bookDescription(),
    tags: ["intro call", "booking", "calendar", "write"],
    examples: [
      JSON.stringify({
        skill: bookingSkillIds.book,
        full_name: "Ada Lovelace",
        work_email: "ada@engines.example",
        start: "<a start from free times>",
        time_zone: "Europe/London",
        dry_run: true,
      }),
    ],
    scope: bookingScope,
  },
  {
    id: bookingSkillIds.cancel,
    name: "Cancel the intro call",
    description: cancelDescription(),
    tags: ["intro call", "booking", "cancel", "write"],
    examples: [JSON.stringify({ skill: bookingSkillIds.cancel, booking_id: "<booking_id from the booking>" })],
    scope: bookingScope,
  },
];
