import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { BookingDeps } from "../booking/book.ts";
import { bookingScope, bookingToolNames } from "../booking/names.ts";
import { bookedUnder, bookIntroCall, cancelIntroCall, listFreeTimes } from "../booking/operations.ts";
import type { BookingOutcome } from "../booking/outcome.ts";
import {
  bookingDryRunSchema,
  bookingReceiptSchema,
  bookingSchema,
  bookingViewSchema,
  freeTimesLimits,
  freeTimesQuerySchema,
  freeTimesSchema,
} from "../booking/schema.ts";
import { idempotencyKeyMaxLength } from "../briefs/limits.ts";
import { Refusal } from "../http/refusal.ts";
import { bookingIdPattern } from "../booking/store.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { bookingConfirmation } from "./booking-confirmation.ts";
import { refusalResult } from "./refusal-result.ts";
import { asksByForm, confirmationKey, confirmByForm } from "./confirmation.ts";
import { jsonSchemaOf } from "./json-schema.ts";
import { structuredResult, toolError, type Caller, type Tool } from "./tool.ts";

/** Booking as the deployment offers it at run time (undefined where Cal.com is not configured), and the studio's name. */
export interface BookingService {
  deps(): BookingDeps | undefined;
  studio: string;
}

const { freeTimes: freeTimesTool, book: bookTool, cancel: cancelTool } = bookingToolNames;

const idempotencyKeyProperty = {
  type: "string",
  minLength: 1,
  maxLength: idempotencyKeyMaxLength,
  description: "Optional. Any unique string (a UUID, say) that you reuse when you retry the same booking: it books once.",
};

/** Runs an operation, its refusals as tool errors; booking not configured at run time is booking_not_offered. */
async function answering(
  service: BookingService,
  what: string,
  operation: (deps: BookingDeps) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    const deps = service.deps();
    if (!deps) throw new Refusal("booking_not_offered");
    return await operation(deps);
  } catch (error) {
    if (error instanceof Refusal) return refusalResult(error, what);
    throw error;
  }
}

const needsScope = (caller: Caller | undefined, what: string) =>
  caller?.scopes.includes(bookingScope)
    ? undefined
    : toolError(`${what} needs an access token with the scope ${bookingScope}. Nothing was booked or cancelled.`);

/** book_intro_call's output: a booking or a dry run's verdict, each member optional (MCP wants one object type). */
const bookOutputSchema = z
  .object({ ...bookingReceiptSchema.partial().shape, ...bookingDryRunSchema.partial().shape })
  .describe(
    `The booking made (${Object.keys(bookingReceiptSchema.shape).join(", ")}), or a dry run's verdict (dry_run, valid, free, message).`,
  );

function bookedResult(outcome: BookingOutcome, confirmed: boolean, byForm = false): CallToolResult {
  if (outcome.kind === "dry_run") return structuredResult(outcome.result.message, outcome.result);
  const { booking } = outcome;
  const said =
    booking.status === "cancelled"
      ? `Booked before (${booking.booking_id}, ${booking.start} to ${booking.end}), then cancelled at ${booking.cancelled_at}: nothing is booked now.`
      : byForm
        ? `This form was already answered and its call booked: ${booking.booking_id}, ${booking.start} to ${booking.end}; a later answer to it changes nothing.`
        : outcome.kind === "replayed"
          ? `Already booked (the same booking as before): ${booking.booking_id}, ${booking.start} to ${booking.end}.`
          : `Booked: ${booking.booking_id}, ${booking.start} to ${booking.end} (${booking.time_zone}).`;
  const person = confirmed ? " The person confirmed their name, e-mail and the time in your client's form." : "";
  return structuredResult(`${said}${person} ${booking.next_steps}`, booking);
}

/** The three booking tools, where the build says agents can book; none otherwise, so no client is offered them. */
export function bookingTools(prebuilt: PrebuiltResources, service: BookingService): Tool[] {
  if (!prebuilt.contact.booking.agents) return [];
  const studio = prebuilt.site.name;
  const minutes = prebuilt.contact.booking.duration_minutes;
  const bookInput = jsonSchemaOf(bookingSchema, "input");

  const listFree: Tool = {
    name: freeTimesTool,
    title: "Free times for the intro call",
    description: `Lists when ${studio}'s ${minutes}-minute intro call can be booked: every free start in the days asked for (${freeTimesLimits.defaultSpanDays} days from today by default, at most ${freeTimesLimits.spanDays} days, up to ${freeTimesLimits.aheadDays} days ahead), written in the time zone asked for (the person's; default the studio's). Read-only; needs no token. The same JSON as GET /api/v1/free-times. Then offer the person a few times and book the one they choose with ${bookTool}.`,
    inputSchema: jsonSchemaOf(freeTimesQuerySchema, "input"),
    outputSchema: jsonSchemaOf(freeTimesSchema, "output"),
    annotations: {
      title: "Free times for the intro call",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    run: (args) =>
      answering(service, "No free times were listed:", async (deps) => {
        const free = await listFreeTimes(args, deps);
        return structuredResult(`${free.times.length} free times from ${free.from} to ${free.to} (${free.time_zone}):`, free);
      }),
  };

  const book: Tool = {
    name: bookTool,
    title: "Book the intro call",
    description: [
      `Books ${studio}'s ${minutes}-minute intro call for the person you act for: a real meeting with a person at the studio, and Cal.com e-mails the person the invitation.`,
      `Call it ONLY when the person asked for a call, chose the time from ${freeTimesTool}, and confirmed their full name and work e-mail; never guess them.`,
      "Give the lead_id of the brief you filed for them (submit_project_brief), so the studio sees the brief with the call.",
      "Where your client can show forms (elicitation, MCP 2026-07-28), the server asks the person to confirm their name, e-mail and the time in a form first; if they decline, nothing is booked.",
      "Set dry_run to true to check everything, the time included, without booking.",
      `Needs an OAuth access token with the scope ${bookingScope}: without one the server answers HTTP 401 and the client starts the OAuth flow.`,
      "A time that is no longer free comes back as an error with fresh free times: ask the person to choose again.",
      "Not idempotent unless you pass idempotency_key.",
    ].join(" "),
    inputSchema: { ...bookInput, properties: { ...(bookInput.properties as object), idempotency_key: idempotencyKeyProperty } },
    outputSchema: jsonSchemaOf(bookOutputSchema, "output"),
    annotations: { title: "Book the intro call", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (args, { caller, clientCapabilities, rounds }) =>
      needsScope(caller, "Booking the intro call") ??
      answering(service, "The call was NOT booked:", async (deps) => {
        const { idempotency_key: idempotencyKey, ...body } = args;
        const request = (body: Record<string, unknown>, key = idempotencyKey) =>
          bookIntroCall({ body, owner: caller!.grantId, address: caller!.address, idempotencyKey: key }, deps, studio);
        if (!(rounds && asksByForm(clientCapabilities) && body.dry_run !== true)) return bookedResult(await request(body), false);
        // The person confirms name, e-mail and time first; one form answered books once, and is answered so ever after.
        const settled = async (key: string, byForm: boolean) => {
          const booked = await bookedUnder(caller!.grantId, key, deps, studio);
          return booked && bookedResult(booked, true, byForm);
        };
        const confirmation = bookingConfirmation(body, deps, studio, (b) => request({ ...b, dry_run: true }), settled);
        const asked = await confirmByForm(confirmation, args, body, rounds);
        if ("answer" in asked) return asked.answer as CallToolResult;
        try {
          return bookedResult(await request({ ...body, ...asked.confirmed }, idempotencyKey ?? confirmationKey(asked.form)), true);
        } catch (error) {
          if (error instanceof Refusal && error.condition === "idempotency_key_reused" && idempotencyKey === undefined)
            return toolError(
              `This form was already answered and its call booked; an answer with other values was NOT booked. To book another time, call ${bookTool} again without requestState, and the person is asked again.`,
            );
          throw error;
        }
      }),
  };

  const cancel: Tool = {
    name: cancelTool,
    title: "Cancel the intro call",
    description: `Cancels an intro call this grant booked with ${bookTool}, by its booking_id; Cal.com tells the person and the studio. Call it only when the person asked to cancel. Cancelling again answers the cancelled booking. Needs an OAuth access token with the scope ${bookingScope}, of the grant that booked it.`,
    inputSchema: jsonSchemaOf(
      z.strictObject({
        booking_id: z
          .string({ error: "booking_id must be a string" })
          .regex(bookingIdPattern, "booking_id must be a booking_id that book_intro_call returned, such as bk_0123456789abcdefghjk")
          .describe(`The booking_id ${bookTool} returned.`),
      }),
      "input",
    ),
    outputSchema: jsonSchemaOf(bookingViewSchema, "output"),
    annotations: { title: "Cancel the intro call", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    run: async (args, { caller }) =>
      needsScope(caller, "Cancelling the intro call") ??
      answering(service, "Nothing was cancelled:", async (deps) => {
        const extra = Object.keys(args).filter((k) => k !== "booking_id");
        if (extra.length > 0 || typeof args.booking_id !== "string")
          throw new Refusal("invalid_booking", {
            detail: `${cancelTool} takes only booking_id, a string${extra.length > 0 ? `; remove ${extra.join(", ")}` : ""}.`,
            resolution: `Pass the booking_id ${bookTool} returned.`,
          });
        const cancelled = await cancelIntroCall(args.booking_id, caller!.grantId, deps);
        return structuredResult(`Cancelled: ${cancelled.booking_id}, which was ${cancelled.start}.`, cancelled);
      }),
  };

  return [listFree, book, cancel];
}
