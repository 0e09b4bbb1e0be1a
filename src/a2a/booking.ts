import type { Part } from "@a2a-js/sdk";
import { z } from "zod";
import type { BookingDeps } from "../booking/book.ts";
import { bookingSkillIds } from "../booking/names.ts";
import { bookingSchema } from "../booking/schema.ts";
import { idempotencyKeyMaxLength, idempotencyKeyPattern } from "../briefs/limits.ts";
import { fieldErrorsOf } from "../briefs/validate.ts";
import { asRefusal, Refusal } from "../http/refusal.ts";
import { cancelSchema } from "./booking-skills.ts";
import type { AuthenticatedCaller } from "./caller.ts";
import { completed, dataPart, textPart, type TaskOutcome } from "./parts.ts";
import { refusalParts, refusedTask, validFields } from "./refused.ts";

/**
 * The intro call's skills at work, over the door-neutral operations (src/booking/operations.ts, loaded with the first
 * call). A refusal is answered as A2A answers a skill's outcome, never as a protocol error: free times (a read) with a
 * message, booking and cancelling in their task's state. Either way a data part carries the condition's code (the REST
 * problem's), what it brings (field errors, fresh free times) and retry_after.
 */
export interface BookingWork {
  /** Booking as the deployment runs it; undefined where Cal.com is not configured (the card may still offer it). */
  booking: () => Promise<BookingDeps | undefined>;
  studio: string;
  /** GET /api/v1/free-times, absolute, for the text of an answer. */
  freeTimesUrl: string;
}

const operations = () => import("../booking/operations.ts");

async function offered(work: BookingWork): Promise<BookingDeps> {
  const deps = await work.booking();
  if (!deps) throw new Refusal("booking_not_offered");
  return deps;
}

/** What a booking task keeps for a reply: the booking's fields and its idempotency_key. */
const bookArguments = bookingSchema.extend({ idempotency_key: z.string().regex(idempotencyKeyPattern) });

/** The free-times skill's answer: the same JSON as GET /api/v1/free-times for the data part's from, to and time_zone. */
export async function freeTimesAnswer(query: Record<string, unknown>, work: BookingWork): Promise<Part[]> {
  try {
    const deps = await offered(work);
    const free = await (await operations()).listFreeTimes(query, deps);
    const text =
      `${work.studio}: ${free.times.length} free times for the intro call from ${free.from} to ${free.to} ` +
      `(${free.time_zone}), the same JSON as GET ${work.freeTimesUrl}.`;
    return [textPart(text), dataPart(free)];
  } catch (error) {
    return refusalParts(asRefusal(error, console.error, "A2A free times"));
  }
}

/** Books or cancels, as the task's skill says: the task's outcome, every refusal included. */
export async function bookingTask(
  skill: typeof bookingSkillIds.book | typeof bookingSkillIds.cancel,
  body: Record<string, unknown>,
  caller: AuthenticatedCaller,
  work: BookingWork,
): Promise<TaskOutcome> {
  try {
    return skill === bookingSkillIds.book ? await book(body, caller, work) : await cancel(body, caller, work);
  } catch (error) {
    const refusal = asRefusal(error, console.error, `A2A ${skill}`);
    return refusedTask(refusal, () => (skill === bookingSkillIds.book ? validFields(bookArguments, body) : {}));
  }
}

/** The key travels in the data part here: a bad one is named as the field it is. */
const keyRule = `idempotency_key must be 1 to ${idempotencyKeyMaxLength} visible ASCII characters`;
const invalidKey = new Refusal("invalid_idempotency_key", {
  detail: `${keyRule}.`,
  extensions: { errors: [{ field: "/idempotency_key", code: "invalid_format", message: keyRule }] },
});

async function book(body: Record<string, unknown>, caller: AuthenticatedCaller, work: BookingWork): Promise<TaskOutcome> {
  const deps = await offered(work);
  const { idempotency_key: idempotencyKey, ...fields } = body;
  const request = { body: fields, owner: caller.grantId, address: caller.address, idempotencyKey };
  const outcome = await (await operations()).bookIntroCall(request, deps, work.studio).catch((error: unknown) => {
    throw error instanceof Refusal && error.condition === "invalid_idempotency_key" ? invalidKey : error;
  });
  if (outcome.kind === "dry_run") return completed("dry-run", outcome.result.message, outcome.result);
  const { booking } = outcome;
  const said = outcome.kind === "replayed" ? "Already booked" : "Booked";
  const text = `${said}: booking ${booking.booking_id}, ${booking.start} (${booking.time_zone}). ${booking.next_steps}`;
  return completed("booking", text, booking);
}

async function cancel(body: Record<string, unknown>, caller: AuthenticatedCaller, work: BookingWork): Promise<TaskOutcome> {
  const deps = await offered(work);
  const parsed = cancelSchema.safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error, body, "cancellation");
    throw new Refusal("invalid_booking", { detail: `${errors.map((e) => e.message).join("; ")}.`, extensions: { errors } });
  }
  const cancelled = await (await operations()).cancelIntroCall(parsed.data.booking_id, caller.grantId, deps);
  const text = `Cancelled: booking ${cancelled.booking_id}, ${cancelled.start} (${cancelled.time_zone}).`;
  return completed("booking", text, cancelled);
}
