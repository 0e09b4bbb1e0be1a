import { isIsoDate, isInt, isObject, isString, isZone, must, type Check, type Property, type Shape } from "./pipe.ts";

/**
 * The inputs of the Cal.com routes the stand-in serves, as Cal.com's classes declare them (packages/platform/types):
 * properties in declaration order, each property's constraints in the order class-validator reports them.
 */

const required = (...checks: Check[]): Property => ({ checks });
const optional = (...checks: Check[]): Property => ({ optional: true, checks });
const rule = (holds: (input: Record<string, unknown>) => boolean, message: string): Property => ({
  rule: true,
  checks: [must((input) => holds(input as Record<string, unknown>), message)],
});
/** A query value after Cal.com's `value && parseInt(value)` transform, then IsNumber. */
const isNumeric = (name: string) =>
  must((v) => !Number.isNaN(parseInt(String(v))), `${name} must be a number conforming to the specified constraints`);
const isEmpty = (v: unknown) => v === "";

/** ById_2024_09_04: GET /v2/slots by eventTypeId. */
export const slotsQuery: Shape = [
  ["eventTypeId", required(isNumeric("eventTypeId"))],
  ["start", required(isIsoDate("start"))],
  ["end", required(isIsoDate("end"))],
  ["timeZone", optional(isZone("timeZone"))],
  ["duration", optional(isNumeric("duration"))],
  // format is lower-cased first, and an empty one is none.
  ["format", optional(must((v) => isEmpty(v) || /^(range|time)$/i.test(String(v)), "slotFormat must be either 'range' or 'time'"))],
  ["bookingUidToReschedule", optional(isString("bookingUidToReschedule"))],
  ["type", optional(isString("type"))],
];

const languages = (
  "ar ca de es eu he id ja lv pl ro sr th vi az cs el es-419 fi hr it km nl pt ru sv tr zh-CN bg da en et fr hu iw ko no " +
  "pt-BR sk ta uk zh-TW bn"
).split(" ");

const attendee: Shape = [
  [
    "attendee email or phone",
    rule((a) => !!a.email || !!a.phoneNumber, "Attendee must have at least one contact method (email or phone number)"),
  ],
  ["name", required(isString("name"))],
  ["email", optional(must((v) => isEmpty(v) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(v)), "Invalid email format"))],
  ["timeZone", required(isZone("timeZone"))],
  [
    "phoneNumber",
    optional(
      must((v) => isEmpty(v) || /^\+[1-9]\d{6,14}$/.test(String(v)), "Invalid phone number format. Please use international format."),
    ),
  ],
  [
    "language",
    optional(must((v) => languages.includes(v as string), `language must be one of the following values: ${languages.join(", ")}`)),
  ],
];

/** ValidateMetadata as in the newest source: at most 50 keys of up to 40 characters; strings up to 500 characters, numbers, booleans. */
const metadataFits = (m: unknown) =>
  typeof m === "object" &&
  m !== null &&
  Object.keys(m).length <= 50 &&
  Object.entries(m).every(
    ([k, v]) => k.length <= 40 && (["number", "boolean"].includes(typeof v) || (typeof v === "string" && v.length <= 500)),
  );
const metadataMessage = "Metadata must have at most 50 keys, each key up to 40 characters, and string values up to 500 characters.";

const isUrl = (v: unknown) => typeof v === "string" && v.includes(".") && URL.canParse(v.includes("://") ? v : `https://${v}`);

/** CreateBookingInput_2024_08_13: POST /v2/bookings. */
export const bookingBody: Shape = [
  ["start", required(isIsoDate("start"))],
  ["attendee", { checks: [must((v) => v !== undefined && v !== null, "attendee should not be null or undefined")], nested: attendee }],
  ["bookingFieldsResponses", optional(isObject("bookingFieldsResponses"))],
  ["eventTypeId", optional(isInt("eventTypeId"))],
  ...["eventTypeSlug", "username", "teamSlug", "organizationSlug"].map((name): Shape[number] => [name, optional(isString(name))]),
  [
    "guests",
    optional(
      must((v) => (Array.isArray(v) ? v : [v]).every((g) => typeof g === "string"), "each value in guests must be a string"),
      must(Array.isArray, "guests must be an array"),
    ),
  ],
  ["meetingUrl", optional(must(isUrl, "meetingUrl must be a URL address"))],
  // Cal.com checks a location object against the event type's locations; the stand-in takes any string or object.
  ["location", optional()],
  ["metadata", optional(must(metadataFits, metadataMessage), isObject("metadata"))],
  [
    "lengthInMinutes",
    optional(
      must((v) => typeof v === "number" && v >= 1, "lengthInMinutes must not be less than 1"),
      isInt("lengthInMinutes"),
    ),
  ],
  ["routing", optional(isObject("routing"))],
  ["emailVerificationCode", optional(isString("emailVerificationCode"))],
  [
    "eventTypeId or eventTypeSlug + username",
    rule(
      (b) => !!b.eventTypeId || (!!b.eventTypeSlug && (!!b.username || !!b.teamSlug)),
      "Either eventTypeId or eventTypeSlug + username or eventTypeSlug + teamSlug must be provided",
    ),
  ],
];

/** CancelBookingInput_2024_08_13: POST /v2/bookings/{uid}/cancel. */
export const cancelBody: Shape = [
  ["cancellationReason", optional(isString("cancellationReason"))],
  ["cancelSubsequentBookings", optional(must((v) => typeof v === "boolean", "cancelSubsequentBookings must be a boolean value"))],
];
