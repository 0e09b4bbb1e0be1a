/**
 * Cal.com's public API v2, the calls booking needs, one operation per function: free times (GET /v2/slots), a booking
 * (POST /v2/bookings), the look-up of a booking after a timeout (GET /v2/bookings, the only call that needs the API
 * key), and a cancellation. Each answer Cal.com gives is read into our words: a time that is not free is `SlotTaken`;
 * a timeout, a 429, a 5xx or an answer in a shape the API does not describe is `ProviderUnavailable`; anything that says the deployment is wrong (an unknown event
 * type, a refused key) is a ConfigurationError. Cal.com's own identifiers stay here and in the booking record.
 */
import { z } from "zod";
import { ConfigurationError } from "../config/env.ts";

export interface CalCom {
  /** The API's base, without /v2: https://api.cal.com, or a self-hosted Cal.com's. */
  apiUrl: string;
  eventTypeId: number;
  apiKey: string;
  /** How long one call may take before it is given up (a booking is then looked up before anything else). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Cal.com answered that the time is not free (taken, too soon, outside the window, or in the past). */
export class SlotTaken extends Error {
  override name = "SlotTaken";
}

/** Cal.com did not answer in time, or answered 429 or 5xx: nothing is known to have happened. */
export class ProviderUnavailable extends Error {
  override name = "ProviderUnavailable";
  /** Seconds Cal.com asked us to wait, when it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(message: string, retryAfterSeconds?: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface ProviderBooking {
  uid: string;
  /** UTC, RFC 3339 */
  start: string;
  end: string;
  status: string;
  attendeeEmail: string;
  /** Our booking id, as the booking's metadata carries it. */
  ours?: string;
}

const slotsVersion = "2024-09-04";
const bookingsVersion = "2026-02-25";

interface CalAnswer {
  status: number;
  body: { status?: string; data?: unknown; error?: { message?: unknown }; pagination?: unknown } | undefined;
  headers: Headers;
}

async function call(
  cal: CalCom,
  method: "GET" | "POST",
  path: string,
  { version, query, body, withKey = false }: { version: string; query?: Record<string, string>; body?: unknown; withKey?: boolean },
): Promise<CalAnswer> {
  const url = new URL(`${cal.apiUrl.replace(/\/+$/, "")}${path}`);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { "cal-api-version": version, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (withKey) headers.authorization = `Bearer ${cal.apiKey}`;
  let response: Response;
  try {
    response = await (cal.fetch ?? fetch)(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(cal.timeoutMs ?? 8_000),
    });
  } catch (error) {
    throw new ProviderUnavailable(`Cal.com ${method} ${path} did not answer: ${error instanceof Error ? error.name : String(error)}`);
  }
  let parsed: CalAnswer["body"];
  try {
    parsed = (await response.json()) as CalAnswer["body"];
  } catch {
    parsed = undefined;
  }
  const answer = { status: response.status, body: parsed, headers: response.headers };
  if (response.status === 429 || response.status >= 500 || parsed === undefined) {
    // Cal.com's own wait: Retry-After where it sends one; on a 429, the reset of the rate-limit window that refused.
    const reset = response.status === 429 ? response.headers.get("x-ratelimit-reset-default") : null;
    const wait = Number(response.headers.get("retry-after") ?? reset ?? NaN);
    throw new ProviderUnavailable(
      `Cal.com ${method} ${path} answered ${response.status}`,
      Number.isFinite(wait) && wait > 0 ? wait : undefined,
    );
  }
  return answer;
}

const messageOf = (answer: CalAnswer) => String(answer.body?.error?.message ?? `HTTP ${answer.status}`);

/** What Cal.com says when a start is no longer (or never was) a free time. */
const notFree = [/already has booking/i, /not available/i, /can't be booked at the "start" time/i, /in the past/i, /reserved this slot/i];

/** An answer that says the deployment is wrong, not the request: the operator must act. */
function misconfigured(answer: CalAnswer, what: string): never {
  throw new ConfigurationError(
    `Cal.com refused ${what} (HTTP ${answer.status}: ${messageOf(answer)}): check CAL_EVENT_TYPE_ID, CAL_API_URL and CAL_API_KEY`,
  );
}

/** The free starts between `from` and `to` (UTC instants), as Cal.com writes them in `timeZone` (with its offset). */
export async function freeStarts(cal: CalCom, { from, to, timeZone }: { from: Date; to: Date; timeZone: string }): Promise<string[]> {
  const answer = await call(cal, "GET", "/v2/slots", {
    version: slotsVersion,
    query: { eventTypeId: String(cal.eventTypeId), start: from.toISOString(), end: to.toISOString(), timeZone },
  });
  if (answer.status !== 200) misconfigured(answer, "the free times");
  const days = calSlots.safeParse(answer.body?.data ?? {});
  if (!days.success) throw unreadable("the free times");
  return Object.values(days.data)
    .flat()
    .map((slot) => slot.start);
}

/** Free times as Cal.com writes them: each day's starts, by date. */
const calSlots = z.record(z.string(), z.array(z.looseObject({ start: z.string() })));

export interface BookingRequest {
  /** UTC, RFC 3339 with Z. */
  start: string;
  attendee: { name: string; email: string; timeZone: string };
  /** Shown to the studio with the booking (at most 50 keys, values up to 500 characters). */
  metadata?: Record<string, string>;
}

/** A booking as Cal.com's API v2 writes one: only the members read here are checked; anything else may be there. */
const calBooking = z.looseObject({
  uid: z.string().min(1),
  start: z.string().refine((at) => Number.isFinite(Date.parse(at))),
  end: z.string().refine((at) => Number.isFinite(Date.parse(at))),
  status: z.string(),
  attendees: z.array(z.looseObject({ email: z.string().optional() })).optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * Cal.com's answer in a shape its API does not describe (a proxy's page, a truncated body, a changed API): nothing is
 * known to have happened, exactly as for an answer that never came, so a booking is looked up before anything else.
 */
const unreadable = (what: string) => new ProviderUnavailable(`Cal.com answered ${what} in a shape its API v2 does not describe`);

const bookingOf = (data: unknown): ProviderBooking => {
  const parsed = calBooking.safeParse(data);
  if (!parsed.success) throw unreadable("a booking");
  const booking = parsed.data;
  const ours = booking.metadata?.frontdoor_booking;
  return {
    uid: booking.uid,
    start: booking.start,
    end: booking.end,
    status: booking.status,
    attendeeEmail: booking.attendees?.[0]?.email ?? "",
    ...(typeof ours === "string" ? { ours } : {}),
  };
};

/** Books `start` for the attendee; SlotTaken when the time is not free. */
export async function createBooking(cal: CalCom, request: BookingRequest): Promise<ProviderBooking> {
  const answer = await call(cal, "POST", "/v2/bookings", {
    version: bookingsVersion,
    body: {
      eventTypeId: cal.eventTypeId,
      start: request.start,
      attendee: { ...request.attendee, language: "en" },
      metadata: request.metadata ?? {},
    },
  });
  if (answer.status === 201 || answer.status === 200) return bookingOf(answer.body?.data);
  // Cal.com keys an accepted booking on its host, start and end: a second insert of the same time is a conflict too.
  if (answer.status === 409 || (answer.status === 400 && notFree.some((words) => words.test(messageOf(answer)))))
    throw new SlotTaken(messageOf(answer));
  return misconfigured(answer, "a booking");
}

/** The attendee's accepted booking at `start`, if Cal.com has one: asked before a timed-out booking is tried again. */
export async function findBooking(
  cal: CalCom,
  { start, attendeeEmail }: { start: string; attendeeEmail: string },
): Promise<ProviderBooking | undefined> {
  const at = Date.parse(start);
  const answer = await call(cal, "GET", "/v2/bookings", {
    version: bookingsVersion,
    withKey: true,
    query: {
      attendeeEmail,
      eventTypeId: String(cal.eventTypeId),
      afterStart: new Date(at - 60_000).toISOString(),
      beforeEnd: new Date(at + 24 * 3_600_000).toISOString(),
      status: "upcoming,unconfirmed",
      take: "10",
    },
  });
  if (answer.status !== 200) misconfigured(answer, "the booking look-up");
  const data = answer.body?.data ?? [];
  if (!Array.isArray(data)) throw unreadable("the booking look-up");
  const found = data.map(bookingOf);
  return found.find((booking) => Date.parse(booking.start) === at && booking.attendeeEmail.toLowerCase() === attendeeEmail.toLowerCase());
}

/** Cancels the booking `uid`; a booking Cal.com no longer has (or already cancelled) is as good as cancelled. */
export async function cancelBooking(cal: CalCom, uid: string, reason: string): Promise<void> {
  const answer = await call(cal, "POST", `/v2/bookings/${encodeURIComponent(uid)}/cancel`, {
    version: bookingsVersion,
    body: { cancellationReason: reason },
  });
  if (answer.status === 200 || answer.status === 404 || (answer.status === 400 && /cancel/i.test(messageOf(answer)))) return;
  misconfigured(answer, "a cancellation");
}
