import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { bookingOfferedIn, bookingToolNames } from "../booking/names.ts";
import { bookingDryRunSchema, bookingReceiptSchema, bookingViewSchema, freeTimesLimits, freeTimesSchema } from "../booking/schema.ts";
import { Refusal } from "../http/refusal.ts";
import {
  bookedUnder,
  bookIntroCall,
  cancelIntroCall,
  listFreeTimes,
  offered,
  type BookingOutcome,
  type BookingServices,
} from "../operations/booking.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { bookingConfirmation } from "./booking-confirmation.ts";
import { refusalResult } from "./refusal-result.ts";
import { jsonSchemaOf } from "./json-schema.ts";
import { performedFor, scopeRefused, writeConfirmed } from "./operation-tool.ts";
import { withIdempotencyKey } from "../operations/operation.ts";
import { structuredResult, type Tool } from "./tool.ts";

const { freeTimes: freeTimesTool, book: bookTool, cancel: cancelTool } = bookingToolNames;

/** book_intro_call's arguments: the booking, and its idempotency key (REST's Idempotency-Key). */
const bookArguments = withIdempotencyKey(
  bookIntroCall.input,
  "Optional. Any unique string (a UUID, say) that you reuse when you retry the same booking: it books once.",
);

const notBooked = "The call was NOT booked:";

/** book_intro_call's output: a booking or a dry run's verdict, each member optional (MCP wants one object type). */
const bookOutputSchema = z
  .object({ ...bookingReceiptSchema.partial().shape, ...bookingDryRunSchema.partial().shape })
  .describe(
    `The booking made (${Object.keys(bookingReceiptSchema.shape).join(", ")}), or a dry run's verdict (dry_run, valid, free, message).`,
  );

function bookedResult(outcome: BookingOutcome | Refusal, confirmed: boolean, byForm = false): CallToolResult {
  if (outcome instanceof Refusal) return refusalResult(outcome, notBooked);
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
export function bookingTools(prebuilt: PrebuiltResources, services: BookingServices): Tool[] {
  if (!bookingOfferedIn(prebuilt)) return [];
  const studio = prebuilt.site.name;
  const minutes = prebuilt.contact.booking.duration_minutes;

  const listFree: Tool = {
    name: freeTimesTool,
    title: "Free times for the intro call",
    description: `Lists when ${studio}'s ${minutes}-minute intro call can be booked: every free start in the days asked for (${freeTimesLimits.defaultSpanDays} days from today by default, at most ${freeTimesLimits.spanDays} days, up to ${freeTimesLimits.aheadDays} days ahead), written in the time zone asked for (the person's; default the studio's). Read-only; needs no token. The same JSON as GET /api/v1/free-times. Then offer the person a few times and book the one they choose with ${bookTool}.`,
    inputSchema: jsonSchemaOf(listFreeTimes.input, "input"),
    outputSchema: jsonSchemaOf(freeTimesSchema, "output"),
    annotations: {
      title: "Free times for the intro call",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    run: async (args) => {
      const free = await performedFor(listFreeTimes, args, undefined, services);
      if (free instanceof Refusal) return refusalResult(free, "No free times were listed:");
      return structuredResult(`${free.times.length} free times from ${free.from} to ${free.to} (${free.time_zone}):`, free);
    },
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
      `Needs an OAuth access token with the scope ${bookIntroCall.scope}: without one the server answers HTTP 401 and the client starts the OAuth flow.`,
      "A time that is no longer free comes back as an error with fresh free times: ask the person to choose again.",
      "Not idempotent unless you pass idempotency_key.",
    ].join(" "),
    inputSchema: jsonSchemaOf(bookArguments, "input"),
    outputSchema: jsonSchemaOf(bookOutputSchema, "output"),
    annotations: { title: "Book the intro call", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (args, call) => {
      const refused = scopeRefused(call.caller, bookIntroCall.scope, "Booking the intro call", "Nothing was booked or cancelled.");
      if (refused) return refused;
      const { idempotency_key: key, ...body } = args;
      const book = (body: Record<string, unknown>, key: unknown) => performedFor(bookIntroCall, body, call.caller, services, key);
      // The person confirms name, e-mail and time first; one form answered books once, and is answered so ever after.
      const spec = async () => {
        const settled = async (key: string, byForm: boolean, sameAs?: Record<string, unknown>) => {
          const booked = await bookedUnder(call.caller!.grantId, key, services, sameAs);
          return booked && bookedResult(booked, true, byForm);
        };
        const dryRun = async (b: Record<string, unknown>) => {
          const checked = await book({ ...b, dry_run: true }, key);
          if (checked instanceof Refusal) throw checked;
          return checked;
        };
        return bookingConfirmation(body, await offered(services), services, dryRun, settled);
      };
      const reused = `This form was already answered and its call booked; an answer with other values was NOT booked. To book another time, call ${bookTool} again without requestState, and the person is asked again.`;
      try {
        return await writeConfirmed({ spec, args, body, call, reused }, book, (result, confirmed) => bookedResult(result, confirmed));
      } catch (error) {
        if (error instanceof Refusal) return refusalResult(error, notBooked);
        throw error;
      }
    },
  };

  const cancel: Tool = {
    name: cancelTool,
    title: "Cancel the intro call",
    description: `Cancels an intro call this grant booked with ${bookTool}, by its booking_id; Cal.com tells the person and the studio. Call it only when the person asked to cancel. Cancelling again answers the cancelled booking. Needs an OAuth access token with the scope ${cancelIntroCall.scope}, of the grant that booked it.`,
    inputSchema: jsonSchemaOf(cancelIntroCall.input, "input"),
    outputSchema: jsonSchemaOf(bookingViewSchema, "output"),
    annotations: { title: "Cancel the intro call", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    run: async (args, { caller }) => {
      const refused = scopeRefused(caller, cancelIntroCall.scope, "Cancelling the intro call", "Nothing was booked or cancelled.");
      if (refused) return refused;
      const cancelled = await performedFor(cancelIntroCall, args, caller, services);
      if (cancelled instanceof Refusal) return refusalResult(cancelled, "Nothing was cancelled:");
      return structuredResult(`Cancelled: ${cancelled.booking_id}, which was ${cancelled.start}.`, cancelled);
    },
  };

  return [listFree, book, cancel];
}

/** What mcpTools hands the booking tools (src/mcp/server.ts). */
export type BookingService = BookingServices;
