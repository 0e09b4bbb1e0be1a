import type { Part } from "@a2a-js/sdk";
import type { BookingServices } from "../operations/booking.ts";
import { bookingSkillIds } from "../booking/names.ts";
import { asRefusal } from "../http/refusal.ts";
import { anyone, callerOf, perform } from "../operations/operation.ts";
import type { AuthenticatedCaller } from "./caller.ts";
import { operationTask, refusalParts } from "./operation-task.ts";
import { completed, dataPart, textPart, type TaskOutcome } from "./parts.ts";

/**
 * The intro call's skills at work, over the operations every door adapts (src/operations/booking.ts, loaded with the
 * first call). A refusal is answered as A2A answers a skill's outcome, never as a protocol error: free times (a read)
 * with a message, booking and cancelling in their task's state (src/a2a/operation-task.ts).
 */
export interface BookingWork extends BookingServices {
  /** GET /api/v1/free-times, absolute, for the text of an answer. */
  freeTimesUrl: string;
}

const operations = () => import("../operations/booking.ts");

/** The free-times skill's answer: the same JSON as GET /api/v1/free-times for the data part's from, to and time_zone. */
export async function freeTimesAnswer(query: Record<string, unknown>, work: BookingWork): Promise<Part[]> {
  try {
    const free = await perform((await operations()).listFreeTimes, query, { caller: anyone, channel: "a2a", services: work });
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
  user: AuthenticatedCaller,
  work: BookingWork,
): Promise<TaskOutcome> {
  const { bookIntroCall, cancelIntroCall } = await operations();
  const caller = callerOf(user);
  if (skill === bookingSkillIds.cancel)
    return operationTask(cancelIntroCall, body, {
      caller,
      services: work,
      takesKey: false,
      present: (cancelled) =>
        completed("booking", `Cancelled: booking ${cancelled.booking_id}, ${cancelled.start} (${cancelled.time_zone}).`, cancelled),
    });
  return operationTask(bookIntroCall, body, {
    caller,
    services: work,
    takesKey: true,
    present(outcome) {
      if (outcome.kind === "dry_run") return completed("dry-run", outcome.result.message, outcome.result);
      const { booking } = outcome;
      const said = outcome.kind === "replayed" ? "Already booked" : "Booked";
      return completed(
        "booking",
        `${said}: booking ${booking.booking_id}, ${booking.start} (${booking.time_zone}). ${booking.next_steps}`,
        booking,
      );
    },
  });
}
