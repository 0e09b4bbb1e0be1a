import { perWindow, policies } from "../limits/policies.ts";
import {
  bookingDryRunSchema,
  bookingReceiptSchema,
  bookingSchema,
  bookingViewSchema,
  freeTimesLimits,
  freeTimesSchema,
} from "../booking/schema.ts";
import { bookingIdPattern, bookingKeyTtlSeconds, freeStartsTtlSeconds } from "../booking/store.ts";
import { idempotencyKey } from "../operations/operation.ts";
import { inWords } from "../limits/policies.ts";
import { bookingsPath, freeTimesPath } from "../paths.ts";
import { bookingOperations } from "../resources/operations.ts";
import { problemsByStatus } from "./openapi-writes.ts";
import { schemaObject } from "./schema-object.ts";

/** The parts of the OpenAPI document about the intro call: free times, a booking, reading and cancelling it. */
const ref = (kind: "schemas" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: string) => ({ "application/json": { schema: ref("schemas", schema) } });

export const bookingComponents = () => ({
  FreeTimes: schemaObject(freeTimesSchema, "output"),
  Booking: schemaObject(bookingSchema, "input"),
  BookingView: schemaObject(bookingViewSchema, "output"),
  BookingReceipt: schemaObject(bookingReceiptSchema, "output"),
  BookingDryRun: schemaObject(bookingDryRunSchema, "output"),
  SlotTakenProblem: {
    description: "slot_taken: the problem, naming the start in `errors`, with fresh free times for the same day.",
    allOf: [
      ref("schemas", "Problem"),
      {
        type: "object",
        required: ["errors", "free_times"],
        properties: { errors: { type: "array", items: ref("schemas", "FieldError") }, free_times: ref("schemas", "FreeTimes") },
      },
    ],
  },
});

const bookingIdParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The booking_id a booking answered with.",
  schema: { type: "string", pattern: bookingIdPattern.source },
};

const notOffered =
  "Where the deployment books no calls (no Cal.com event type configured), every operation answers `booking_not_offered` (404).";

export function bookingPaths(quotaHeaders: Record<string, unknown>) {
  const { "bookings-per-grant": perGrant, "bookings-per-address": perAddress } = policies;
  const { freeTimes, book, getBooking, cancelBooking } = bookingOperations;
  const query = (name: string, description: string, schema: object) => ({ name, in: "query", required: false, description, schema });
  return {
    [freeTimesPath]: {
      get: {
        operationId: freeTimes.operationId,
        summary: "Free times for the intro call",
        description: `Public, no token. Days from \`from\` to \`to\` (at most ${freeTimesLimits.spanDays} days apart, at most ${freeTimesLimits.aheadDays} days ahead), times in \`time_zone\`. Cal.com's answer is kept ${inWords(freeStartsTtlSeconds)}: poll no faster. ${notOffered}`,
        tags: ["Intro call"],
        security: [],
        parameters: [
          query("from", "First day, YYYY-MM-DD in time_zone; default today.", { type: "string", format: "date" }),
          query("to", `Last day, included; default ${freeTimesLimits.defaultSpanDays} days after from.`, {
            type: "string",
            format: "date",
          }),
          query("time_zone", "IANA time zone such as Europe/Berlin; default the studio's.", { type: "string" }),
        ],
        responses: {
          "200": { description: "The free times.", headers: quotaHeaders, content: json("FreeTimes") },
          ...problemsByStatus(
            ["invalid_query", "booking_not_offered", "rate_limited", "calendar_unavailable", "service_unavailable"],
            quotaHeaders,
          ),
        },
      },
    },
    [bookingsPath]: {
      post: {
        operationId: book.operationId,
        summary: "Book the intro call for the person you act for",
        description:
          "Call it only when the person asked for a call and confirmed their name, e-mail and the time. Take `start` from free times. Cal.com sends them the invitation; the studio sees the booking, with the brief when `lead_id` names one this grant filed. " +
          `With \`dry_run: true\` everything is checked, the time included, and nothing is booked. Each grant books at most ${perGrant.quota} calls ${perWindow(perGrant.windowSeconds)} (policy "bookings-per-grant"; ${perAddress.quota} from one address, every grant together). ${notOffered}`,
        tags: ["Intro call"],
        security: [{ oauth2: [...book.scopes] }],
        parameters: [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: `Retrying with the same key and body within ${inWords(bookingKeyTtlSeconds)} answers the same booking and books once; the same key with another body is refused.`,
            schema: schemaObject(idempotencyKey, "input"),
          },
        ],
        requestBody: { required: true, content: json("Booking") },
        responses: {
          "200": {
            description: "A dry run: the time is free and nothing was booked.",
            headers: quotaHeaders,
            content: json("BookingDryRun"),
          },
          "201": {
            description: "Booked. A replay of an Idempotency-Key carries `Idempotent-Replayed: true`.",
            headers: {
              ...quotaHeaders,
              Location: {
                description: "The booking's URL, to read it (GET) with a token of the same grant.",
                schema: { type: "string", format: "uri" },
              },
            },
            content: json("BookingReceipt"),
          },
          ...problemsByStatus(
            [
              "invalid_json",
              "invalid_idempotency_key",
              "invalid_token",
              "insufficient_scope",
              "booking_not_offered",
              "slot_taken",
              "payload_too_large",
              "invalid_booking",
              "idempotency_key_reused",
              "rate_limited",
              "booking_quota_exceeded",
              "calendar_unavailable",
              "service_unavailable",
            ],
            quotaHeaders,
          ),
        },
      },
    },
    [`${bookingsPath}/{id}`]: {
      parameters: [bookingIdParameter],
      get: {
        operationId: getBooking.operationId,
        summary: "A booking this grant made",
        description:
          "Any token of the grant that booked it (svc:read, which every token carries). Another grant's booking, through the very same client too, is not_found, as one that does not exist.",
        tags: ["Intro call"],
        security: [{ oauth2: [...getBooking.scopes] }],
        responses: {
          "200": { description: "The booking.", headers: quotaHeaders, content: json("BookingView") },
          ...problemsByStatus(["invalid_token", "not_found", "rate_limited", "service_unavailable"], quotaHeaders),
        },
      },
    },
    [`${bookingsPath}/{id}/cancel`]: {
      parameters: [bookingIdParameter],
      post: {
        operationId: cancelBooking.operationId,
        summary: "Cancel a booking this grant made",
        description:
          "Cancels it with Cal.com, which tells the person and the studio. Cancelling again answers the cancelled booking. Another grant's booking is not_found.",
        tags: ["Intro call"],
        security: [{ oauth2: [...cancelBooking.scopes] }],
        responses: {
          "200": { description: "The cancelled booking.", headers: quotaHeaders, content: json("BookingView") },
          ...problemsByStatus(
            ["invalid_token", "insufficient_scope", "not_found", "rate_limited", "calendar_unavailable", "service_unavailable"],
            quotaHeaders,
          ),
        },
      },
    },
  };
}
