import { TaskState, type Part } from "@a2a-js/sdk";
import type { BookingDeps } from "../booking/book.ts";
import { bookingSkillIds } from "../booking/names.ts";
import { bookingSchema } from "../booking/schema.ts";
import { idempotencyKeyMaxLength, idempotencyKeyPattern } from "../briefs/limits.ts";
import { fieldErrorsOf } from "../briefs/validate.ts";
import { ConfigurationError } from "../config/env.ts";
import { conditionOf, type ConditionName } from "../http/conditions.ts";
import { Refusal } from "../http/refusal.ts";
import { cancelSchema } from "./booking-skills.ts";
import type { AuthenticatedCaller } from "./caller.ts";
import { completed, dataPart, textPart, type TaskOutcome } from "./parts.ts";

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

/** The refusals a reply in the same task can mend, and what to reply with. */
const mendable: Partial<Record<ConditionName, string>> = {
  invalid_booking: "Reply in this task with a data part holding the corrected fields.",
  invalid_idempotency_key: "Reply in this task with a data part holding a valid idempotency_key; a reply without one books without a key.",
  slot_taken: "Reply in this task with a data part holding another start from free_times.",
};

const operations = () => import("../booking/operations.ts");

async function offered(work: BookingWork): Promise<BookingDeps> {
  const deps = await work.booking();
  if (!deps) throw new Refusal("booking_not_offered");
  return deps;
}

/** What went wrong, as a refusal: an unexpected failure is logged and answered as an outage, never with its own words. */
function refusalOf(error: unknown): Refusal {
  if (error instanceof Refusal) return error;
  if (error instanceof ConfigurationError) {
    console.error(`CONFIGURATION ERROR: ${error.message}`);
    return new Refusal("misconfigured");
  }
  console.error(`A2A booking failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new Refusal("service_unavailable");
}

/** A refusal in words and as data. An outage says when to retry. */
function answerOf(refusal: Refusal): { text: string; data: Record<string, unknown> } {
  const condition = conditionOf(refusal.condition);
  const { detail, resolution, extensions, headers } = refusal.options;
  const retryAfter = Number(headers?.["Retry-After"] ?? condition.retryAfterSeconds ?? 0) || undefined;
  const words = [
    detail ?? condition.when,
    resolution,
    condition.status === 503 && retryAfter ? `Retry in ${retryAfter} seconds.` : undefined,
  ];
  return {
    text: words.filter(Boolean).join(" "),
    data: { code: condition.problem, ...extensions, ...(retryAfter ? { retry_after: retryAfter } : {}) },
  };
}

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
    const { text, data } = answerOf(refusalOf(error));
    return [textPart(text), dataPart(data)];
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
    const refusal = refusalOf(error);
    const { text, data } = answerOf(refusal);
    const reply = mendable[refusal.condition];
    if (reply) {
      const carried = skill === bookingSkillIds.book ? toCarry(body, refusal) : {};
      return { state: TaskState.TASK_STATE_INPUT_REQUIRED, parts: [textPart(`${text} ${reply}`), dataPart(data)], carried };
    }
    const state = refusal.condition === "booking_quota_exceeded" ? TaskState.TASK_STATE_REJECTED : TaskState.TASK_STATE_FAILED;
    return { state, parts: [textPart(text), dataPart(data)] };
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

/**
 * What a task waiting for a reply keeps: the booking's fields that are valid on their own (so what it stores is bounded
 * by the schema) and a valid idempotency_key; a refused time is what the reply replaces, so it is not kept.
 */
function toCarry(body: Record<string, unknown>, refusal: Refusal): Record<string, unknown> {
  const kept: Record<string, unknown> = Object.fromEntries(
    Object.entries(bookingSchema.shape)
      .filter(([name, field]) => Object.hasOwn(body, name) && field.safeParse(body[name]).success)
      .map(([name]) => [name, body[name]]),
  );
  const key = body.idempotency_key;
  if (typeof key === "string" && idempotencyKeyPattern.test(key)) kept.idempotency_key = key;
  if (refusal.condition === "slot_taken") delete kept.start;
  return kept;
}
