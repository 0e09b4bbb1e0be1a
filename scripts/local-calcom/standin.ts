import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { serveWeb } from "../lib/serve-web.ts";
import { replaceFile } from "../local-store/snapshot.ts";
import { calIso, dateIn, slotStartsBetween, slotStartsOn, type OfficeHours } from "./calendar.ts";
import { bookingBody, cancelBody, slotsQuery } from "./inputs.ts";
import { parseIso, pipeMessage, validate, type Failure } from "./pipe.ts";

/**
 * A local stand-in for Cal.com's API v2 (see notes/calcom-api.md): free times from office hours, bookings kept in a JSON
 * file, and the same paths, versions, validation messages, status codes and bodies as Cal.com, so the production
 * client runs unchanged when Cal.com is not configured. It serves one event type. Faults are queued as in the Postmark
 * stand-in.
 */
export type { OfficeHours, Weekday } from "./calendar.ts";

export type CalFault = "timeout" | "accept-then-timeout" | "500" | "503" | "429" | "malformed";

export interface CalStandInOptions {
  /** The one event type it serves (e.g. 1). */
  eventTypeId: number;
  /** The event's length (the intro call: 30). */
  lengthMinutes: number;
  /** Free times come from these hours. */
  hours: OfficeHours;
  /** "cal_test_…": required only where Cal.com requires a key (GET /v2/bookings). */
  apiKey: string;
  /** Bookings kept here as JSON (written atomically: temp file + rename), restored on start. */
  dataFile?: string;
  /** Default 120. */
  minimumNoticeMinutes?: number;
  /** Default 60: later starts are refused as outside the window. */
  bookingWindowDays?: number;
  /** Injected clock for tests. */
  now?: () => Date;
  /** Default: a free port. */
  port?: number;
  /** How long "timeout" faults hold the response (default 15_000), unless released before. */
  timeoutMs?: number;
}

export interface StandInBooking {
  id: number;
  uid: string;
  start: string;
  end: string;
  status: "accepted" | "cancelled";
  attendee: { name: string; email: string; timeZone: string; language: string; phoneNumber?: string };
  bookingFieldsResponses: Record<string, unknown>;
  metadata: Record<string, unknown>;
  createdAt: string;
  cancellationReason?: string;
  updatedAt?: string;
  guests?: string[];
  location?: string;
}

export interface CalStandIn {
  url: string;
  apiKey: string;
  eventTypeId: number;
  bookings(): StandInBooking[];
  /** Every call of Cal.com's API it answered, in order (the control paths aside): what a cache spares shows here. */
  requests(): { method: string; path: string }[];
  fail(...faults: CalFault[]): void;
  /** How many answers a "timeout" fault holds right now: a test waits for its call to be held, not for a while. */
  held(): number;
  /** Ends every hold now, as if its time were up: each held call gets the answer it would have got then. */
  release(): void;
  close(): Promise<void>;
}

const faultNames: CalFault[] = ["timeout", "accept-then-timeout", "500", "503", "429", "malformed"];
const slotsVersion = "2024-09-04";
const bookingVersions = ["2024-08-13", "2026-02-25"];
const dataFormat = "frontdoor-local-calcom/1";
const minute = 60_000;
const day = 86_400_000;

const texts = {
  past: "Attempting to book a meeting in the past.",
  outOfBounds:
    `The event type can't be booked at the "start" time provided. This could be because it's too soon (violating the minimum ` +
    `booking notice) or too far in the future (outside the event's scheduling window). Try fetching available slots first ` +
    `using the GET /v2/slots endpoint and then make a booking with "start" time equal to one of the available slots: ` +
    `https://cal.com/docs/api-reference/v2/slots`,
  taken: "User either already has booking at this time or is not available",
  noAuth:
    "PermissionsGuard - no authentication provided. Provide either authorization bearer token containing managed user access " +
    "token or oAuth client id in 'x-cal-client-id' header.",
  badKey: "ApiAuthStrategy - api key - Your api key is not valid",
  throttled: "Too many requests. Please try again later.",
  lengthInMinutes:
    "Can't specify 'lengthInMinutes' because event type does not have multiple possible lengths. Please, remove the " +
    "'lengthInMinutes' field from the request.",
};

const exceptions: Record<number, [code: string, error: string]> = {
  400: ["BadRequestException", "Bad Request"],
  401: ["UnauthorizedException", "Unauthorized"],
  403: ["ForbiddenException", "Forbidden"],
  404: ["NotFoundException", "Not Found"],
  429: ["ThrottlerException", "Too Many Requests"],
  500: ["InternalServerErrorException", "Internal Server Error"],
  503: ["ServiceUnavailableException", "Service Unavailable"],
};

/** An HttpException as Cal.com's HttpExceptionFilter renders it; `details` defaults to NestJS's own response body. */
class CalError extends Error {
  status: number;
  details: unknown;
  constructor(status: number, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.details = details ?? (status === 429 ? message : { message, error: exceptions[status]![1], statusCode: status });
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

const errorResponse = (error: CalError, path: string, now: number) =>
  json(error.status, {
    status: "error",
    timestamp: new Date(now).toISOString(),
    path,
    error: { code: exceptions[error.status]![0], message: error.message, details: error.details },
  });

const pipeError = (failures: Failure[]) => (failures.length > 0 ? new CalError(400, pipeMessage(failures)) : undefined);

// Cal.com's booking uids: a UUID written in base 58 (22 characters).
const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
function shortUid(): string {
  let n = BigInt(`0x${randomBytes(16).toString("hex")}`);
  let uid = "";
  for (let i = 0; i < 22; i++, n /= 58n) uid = base58[Number(n % 58n)] + uid;
  return uid;
}

// --- persistence -------------------------------------------------------------------------------------------------

const isBooking = (b: Partial<StandInBooking> | null): boolean =>
  typeof b?.id === "number" &&
  typeof b.uid === "string" &&
  parseIso(b.start) !== undefined &&
  parseIso(b.end) !== undefined &&
  (b.status === "accepted" || b.status === "cancelled") &&
  typeof b.attendee?.email === "string";

/** The bookings kept in `file`; none when there is no file. Throws, naming the file, when it cannot be read. */
function restore(file: string): StandInBooking[] {
  const unreadable = (reason: string) => new Error(`The Cal.com stand-in's data file ${file} cannot be read: ${reason}.`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw unreadable((error as Error).message);
  }
  let saved: { format?: unknown; bookings?: unknown };
  try {
    saved = JSON.parse(text);
  } catch (error) {
    throw unreadable(`it is not JSON (${(error as Error).message})`);
  }
  if (saved?.format !== dataFormat) throw unreadable(`it is not an object with "format": "${dataFormat}"`);
  if (!Array.isArray(saved.bookings) || !saved.bookings.every(isBooking)) throw unreadable(`its "bookings" is not a list of bookings`);
  return saved.bookings as StandInBooking[];
}

/** Saves run one after another, each writing the bookings as they then stand. */
function saver(file: string | undefined, bookings: StandInBooking[]): () => Promise<void> {
  let queue: Promise<unknown> = Promise.resolve();
  return () => {
    if (!file) return Promise.resolve();
    const saved = queue.then(() => replaceFile(file, JSON.stringify({ format: dataFormat, bookings })));
    queue = saved.catch(() => undefined);
    return saved;
  };
}

// --- inputs --------------------------------------------------------------------------------------------------------

/** A JSON body as Nest's pipes see it; `empty` is what an absent body becomes. */
async function readBody(request: Request, empty: unknown): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return empty;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CalError(400, (error as Error).message);
  }
}

function asInput(body: unknown): Record<string, unknown> {
  if (!body) throw new CalError(400, "Body is required");
  if (typeof body !== "object") throw new CalError(400, "Body should be an object");
  return body as Record<string, unknown>;
}

// --- the handler ---------------------------------------------------------------------------------------------------

export function calStandInHandler(options: CalStandInOptions): {
  handler: (request: Request) => Promise<Response>;
  bookings(): StandInBooking[];
  requests(): { method: string; path: string }[];
  fail(...faults: CalFault[]): void;
  held(): number;
  release(): void;
} {
  const { eventTypeId, lengthMinutes, hours, apiKey } = options;
  const noticeMs = (options.minimumNoticeMinutes ?? 120) * minute;
  const windowMs = (options.bookingWindowDays ?? 60) * day;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const now = () => (options.now ?? (() => new Date()))().getTime();
  const bookings = options.dataFile ? restore(options.dataFile) : [];
  const save = saver(options.dataFile, bookings);
  const faults: CalFault[] = [];
  /** The holds under way, each ended by its own time or by release(). */
  const holds = new Set<() => void>();
  const hold = () =>
    new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        holds.delete(end);
        resolve();
      };
      const timer = setTimeout(end, timeoutMs);
      holds.add(end);
    });
  const host = { id: 1, name: "Local stand-in host", email: "host@calcom-standin.invalid", username: "standin", timeZone: hours.time_zone };

  const overlapsBooking = (start: number, except?: string) =>
    bookings.some(
      (b) =>
        b.status === "accepted" && b.uid !== except && Date.parse(b.start) < start + lengthMinutes * minute && start < Date.parse(b.end),
    );

  function freeStarts(from: number, to: number, except?: string): number[] {
    const lower = Math.max(from, now() + noticeMs);
    const upper = Math.min(to, now() + windowMs);
    return slotStartsBetween(lower, upper, hours, lengthMinutes).filter((start) => !overlapsBooking(start, except));
  }

  function output(b: StandInBooking) {
    const location = b.location ?? "integrations:daily";
    const { phoneNumber, ...attendee } = b.attendee;
    return {
      id: b.id,
      uid: b.uid,
      title: `Intro call between ${host.name} and ${b.attendee.name}`,
      description: "",
      hosts: [{ ...host, displayEmail: host.email }],
      status: b.status,
      ...(b.cancellationReason !== undefined && { cancellationReason: b.cancellationReason }),
      start: b.start,
      end: b.end,
      duration: (Date.parse(b.end) - Date.parse(b.start)) / minute,
      eventTypeId,
      eventType: { id: eventTypeId, slug: "intro-call" },
      attendees: [{ ...attendee, displayEmail: attendee.email, absent: false, ...(phoneNumber && { phoneNumber }) }],
      guests: b.guests ?? [],
      location,
      meetingUrl: location,
      absentHost: false,
      createdAt: b.createdAt,
      updatedAt: b.updatedAt ?? b.createdAt,
      metadata: b.metadata,
      bookingFieldsResponses: b.bookingFieldsResponses,
    };
  }

  function getSlots(url: URL): Response {
    const query = Object.fromEntries(url.searchParams);
    if (!("eventTypeId" in query)) {
      // The stand-in knows no users or teams, and serves no dynamic event: Cal.com's other selectors fail as unknown
      // ones do there, and without one its pipe falls back to the usernames input.
      if (query.eventTypeSlug && query.username) throw new CalError(404, `User with username ${query.username} not found`);
      if (query.eventTypeSlug && query.teamSlug) throw new CalError(404, `Team with slug ${query.teamSlug} not found`);
      throw new CalError(
        400,
        "usernames property is wrong,each value in usernames must be a string, The array must contain at least 2 elements., " +
          "usernames must be an array , organizationSlug property is wrong,organizationSlug must be a string ",
      );
    }
    const invalid = pipeError(validate(query, slotsQuery));
    if (invalid) throw invalid;
    if (parseInt(query.eventTypeId!) !== eventTypeId) throw new CalError(404, "Event Type not found");
    const start = parseIso(query.start)!.instant;
    const end = parseIso(query.end)!.instant;
    // Cal.com reads an end at midnight UTC (a date alone, too) as the end of that day.
    const through = end % day === 0 ? end + day - 1000 : end;
    const zone = query.timeZone;
    const range = query.format?.toLowerCase() === "range";
    const data: Record<string, object[]> = {};
    // The duration is taken and ignored: the served event type has one length.
    for (const slot of freeStarts(start, through, query.bookingUidToReschedule)) {
      const entry = { start: calIso(slot, zone), ...(range && { end: calIso(slot + lengthMinutes * minute, zone) }) };
      (data[dateIn(slot, zone)] ??= []).push(entry);
    }
    return json(200, { status: "success", data });
  }

  async function createBooking(request: Request): Promise<Response> {
    const input = asInput(await readBody(request, undefined));
    // From here to the insert nothing awaits: two requests for one start cannot both pass the check.
    const invalid = pipeError(validate(input, bookingBody));
    if (invalid) throw invalid;
    if (input.eventTypeId === undefined)
      throw new CalError(404, `The Cal.com stand-in serves event type ${eventTypeId} by eventTypeId only.`);
    if (input.eventTypeId !== eventTypeId) throw new CalError(404, `Event type with id ${String(input.eventTypeId)} not found.`);
    if (input.lengthInMinutes) throw new CalError(400, texts.lengthInMinutes);
    const attendee = input.attendee as Record<string, string>;
    if (!attendee.email) throw new CalError(400, "The Cal.com stand-in needs attendee.email (Cal.com also takes a phone number alone).");
    const start = parseIso(input.start)!.instant;
    checkBookable(start);
    const booking = newBooking(input, attendee, start);
    bookings.push(booking);
    // An answer that says the booking failed leaves no booking behind.
    await save().catch((error: unknown) => {
      bookings.splice(bookings.indexOf(booking), 1);
      throw error;
    });
    return json(201, { status: "success", data: output(booking) });
  }

  function checkBookable(start: number) {
    const at = now();
    if (start < at) throw new CalError(400, texts.past);
    const onSlot = slotStartsOn(dateIn(start, hours.time_zone), hours, lengthMinutes).includes(start);
    if (start < at + noticeMs || start > at + windowMs || !onSlot) throw new CalError(400, texts.outOfBounds);
    if (overlapsBooking(start)) throw new CalError(400, texts.taken);
  }

  function newBooking(input: Record<string, unknown>, attendee: Record<string, string>, start: number): StandInBooking {
    const guests = input.guests as string[] | undefined;
    const location = input.location ?? input.meetingUrl;
    const place = location as Record<string, unknown> | string | undefined;
    return {
      id: Math.max(0, ...bookings.map((b) => b.id)) + 1,
      uid: shortUid(),
      start: new Date(start).toISOString(),
      end: new Date(start + lengthMinutes * minute).toISOString(),
      status: "accepted",
      attendee: {
        name: attendee.name!,
        email: attendee.email!,
        timeZone: attendee.timeZone!,
        language: attendee.language ?? "en",
        ...(attendee.phoneNumber && { phoneNumber: attendee.phoneNumber }),
      },
      // Cal.com's responses: the custom fields, with name and email (and guests) from the attendee over them.
      bookingFieldsResponses: Object.assign(
        { name: attendee.name, email: attendee.email },
        input.bookingFieldsResponses,
        { name: attendee.name, email: attendee.email },
        guests && { guests },
      ),
      metadata: (input.metadata as Record<string, unknown> | undefined) ?? {},
      createdAt: new Date(now()).toISOString(),
      ...(guests && { guests }),
      ...(place && {
        location: typeof place === "string" ? place : String(place.link ?? place.address ?? place.location ?? place.phone ?? place.type),
      }),
    };
  }

  function authorize(request: Request) {
    const authorization = request.headers.get("authorization");
    if (!authorization && !request.headers.get("x-cal-client-id")) throw new CalError(403, texts.noAuth);
    if (authorization !== `Bearer ${apiKey}`) throw new CalError(401, texts.badKey);
  }

  function listBookings(request: Request, url: URL): Response {
    authorize(request);
    const q = Object.fromEntries(url.searchParams);
    const take = q.take === undefined ? 100 : parseInt(q.take);
    const skip = q.skip === undefined ? 0 : parseInt(q.skip);
    const statuses = q.status?.split(",").map((s) => s.trim());
    const errors = listProblems(q, take, skip, statuses);
    // The global ValidationPipe's exceptionFactory: BadRequestException({ errors }) (apps/api/v2/src/bootstrap.ts).
    if (errors.length > 0) throw new CalError(400, "Bad Request Exception", { errors });
    const email = q.attendeeEmail?.trim().replace(/\s+/g, "+");
    const after = q.afterStart ? parseIso(q.afterStart)!.instant : -Infinity;
    const before = q.beforeEnd ? parseIso(q.beforeEnd)!.instant : Infinity;
    const found = bookings
      .filter(
        (b) =>
          (!email || b.attendee.email === email) &&
          (q.eventTypeId === undefined || Number(q.eventTypeId) === eventTypeId) &&
          Date.parse(b.start) >= after &&
          Date.parse(b.end) <= before &&
          // Without a status every booking is listed (UNCONFIRMED: Cal.com's default for a missing status was not read).
          (!statuses || statuses.some((s) => hasStatus(b, s))),
      )
      .sort((a, b) => (Date.parse(a.start) - Date.parse(b.start)) * (q.sortStart === "desc" ? -1 : 1));
    const page = found.slice(skip, skip + take);
    return json(200, {
      status: "success",
      data: page.map(output),
      pagination: {
        totalItems: found.length,
        remainingItems: Math.max(0, found.length - skip - page.length),
        returnedItems: page.length,
        itemsPerPage: take,
        currentPage: Math.floor(skip / take) + 1,
        totalPages: Math.ceil(found.length / take),
        hasNextPage: skip + take < found.length,
        hasPreviousPage: skip > 0,
      },
    });
  }

  function hasStatus(b: StandInBooking, status: string): boolean {
    const ended = Date.parse(b.end) <= now();
    if (status === "cancelled") return b.status === "cancelled";
    if (status === "upcoming") return b.status === "accepted" && !ended;
    if (status === "past") return b.status === "accepted" && ended;
    return false; // unconfirmed, recurring: the stand-in makes neither
  }

  function listProblems(q: Record<string, string>, take: number, skip: number, statuses: string[] | undefined) {
    const allowed = ["upcoming", "recurring", "past", "cancelled", "unconfirmed"];
    const problems: [string, Record<string, string>][] = [];
    if (statuses && !statuses.every((s) => allowed.includes(s)))
      problems.push(["status", { isEnum: `Invalid status. Allowed are ${allowed.join(", ")}` }]);
    if (q.eventTypeId !== undefined && !/^-?\d+$/.test(q.eventTypeId))
      problems.push(["eventTypeId", { isInt: "eventTypeId must be an integer number" }]);
    for (const name of ["afterStart", "beforeEnd"])
      if (q[name] !== undefined && !parseIso(q[name])) problems.push([name, { isIso8601: `${name} must be a valid ISO 8601 date.` }]);
    if (q.sortStart !== undefined && !["asc", "desc"].includes(q.sortStart))
      problems.push(["sortStart", { isEnum: 'SortStart must be either "asc" or "desc".' }]);
    if (!(take >= 1 && take <= 250))
      problems.push(["take", { max: "take must not be greater than 250", min: "take must not be less than 1" }]);
    if (!(skip >= 0)) problems.push(["skip", { min: "skip must not be less than 0" }]);
    return problems.map(([property, constraints]) => ({ property, value: q[property], children: [], constraints }));
  }

  function findBooking(uid: string, message: string): StandInBooking {
    const booking = bookings.find((b) => b.uid === uid);
    if (!booking) throw new CalError(404, message);
    return booking;
  }

  async function cancelBooking(uid: string, request: Request): Promise<Response> {
    const booking = findBooking(uid, `Booking with uid=${uid} not found`);
    const input = asInput(await readBody(request, {}));
    const invalid = pipeError(validate(input, cancelBody));
    if (invalid) throw invalid;
    if (booking.status === "cancelled")
      throw new CalError(
        400,
        `Can't cancel booking with uid=${uid} because it has been cancelled already. Please provide uid of a booking that is not cancelled.`,
      );
    const index = bookings.indexOf(booking);
    const cancelled: StandInBooking = {
      ...booking,
      status: "cancelled",
      cancellationReason: (input.cancellationReason as string | undefined) ?? "",
      updatedAt: new Date(now()).toISOString(),
    };
    bookings[index] = cancelled;
    await save().catch((error: unknown) => {
      bookings[index] = booking;
      throw error;
    });
    return json(200, { status: "success", data: output(cancelled) });
  }

  /** The fault queued for this request, or the request served. */
  async function withFault(serve: () => Promise<Response>): Promise<Response> {
    const fault = faults.shift();
    if (fault === undefined) return serve();
    if (fault === "500" || fault === "503") {
      const status = Number(fault);
      throw new CalError(status, exceptions[status]![1]);
    }
    if (fault === "429") throw new CalError(429, texts.throttled);
    // malformed: the request takes effect, and a proxy in between answers 200 with a page of its own.
    if (fault === "malformed") {
      await serve().catch(() => undefined);
      return new Response("<html><body>upstream answered</body></html>", { status: 200, headers: { "content-type": "text/html" } });
    }
    if (fault === "timeout") {
      await hold();
      throw new CalError(503, exceptions[503]![1]);
    }
    // accept-then-timeout: the request takes effect, but its answer comes after the client has given up.
    const response = await serve().catch((error: unknown) => error);
    await hold();
    if (response instanceof Response) return response;
    throw response;
  }

  async function control(request: Request, url: URL): Promise<Response> {
    if (url.pathname === "/_standin/bookings") return Response.json({ bookings: structuredClone(bookings) });
    if (url.pathname === "/_standin/faults" && request.method === "POST") {
      const more = (await request.json()) as CalFault[];
      if (!Array.isArray(more) || !more.every((f) => faultNames.includes(f)))
        return new Response(`faults are ${faultNames.join(", ")}`, { status: 400 });
      faults.push(...more);
      return new Response(null, { status: 204 });
    }
    return new Response("not found", { status: 404 });
  }

  async function route(request: Request, url: URL): Promise<Response> {
    const { pathname } = url;
    const method = request.method;
    const version = request.headers.get("cal-api-version") ?? "";
    const cannot = () => new CalError(404, `Cannot ${method} ${pathname}${url.search}`);
    if (method === "GET" && pathname === "/v2/slots") {
      // Without 2024-09-04 Cal.com routes to its 2024-04-15 slots controller, which has no GET /v2/slots.
      if (version !== slotsVersion) throw cannot();
      return getSlots(url);
    }
    const cancel = /^\/v2\/bookings\/([^/]+)\/cancel$/.exec(pathname)?.[1];
    const uid = /^\/v2\/bookings\/([^/]+)$/.exec(pathname)?.[1];
    const list = pathname === "/v2/bookings";
    if (!(method === "GET" && (list || uid)) && !(method === "POST" && (list || cancel))) throw cannot();
    // Cal.com has no bookings controller for the slots version; a missing or unknown version falls back to 2024-04-15.
    if (version === slotsVersion) throw cannot();
    if (!bookingVersions.includes(version))
      throw new CalError(
        400,
        `Without cal-api-version ${bookingVersions.join(" or ")}, Cal.com answers with its 2024-04-15 bookings API, whose ` +
          `body is not this shape; the Cal.com stand-in speaks ${bookingVersions.join(" and ")} only.`,
      );
    if (method === "POST" && list) return createBooking(request);
    if (list) return listBookings(request, url);
    if (cancel) return cancelBooking(decodeURIComponent(cancel), request);
    const found = decodeURIComponent(uid!);
    return json(200, { status: "success", data: output(findBooking(found, `Booking with uid=${found} was not found in the database`)) });
  }

  // Cal.com's throttler headers, counted in fixed one-minute windows; nothing is refused but by the "429" fault.
  let windowStart = -Infinity;
  let used = 0;
  function rateHeaders(response: Response, at: number) {
    if (at - windowStart >= minute) [windowStart, used] = [at, 0];
    used += 1;
    const remaining = response.status === 429 ? 0 : Math.max(0, 120 - used);
    response.headers.set("X-RateLimit-Limit-Default", "120");
    response.headers.set("X-RateLimit-Remaining-Default", String(remaining));
    response.headers.set("X-RateLimit-Reset-Default", String(Math.ceil((windowStart + minute - at) / 1000)));
    response.headers.set("X-Request-Id", randomUUID());
    return response;
  }

  const requests: { method: string; path: string }[] = [];
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/_standin/")) return control(request, url);
    requests.push({ method: request.method, path: url.pathname });
    const faulty =
      (request.method === "GET" && url.pathname === "/v2/slots") || (request.method === "POST" && url.pathname === "/v2/bookings");
    const serve = () => route(request, url);
    const response = await (faulty ? withFault(serve) : serve()).catch((error: unknown) => {
      if (!(error instanceof CalError)) console.error(error);
      const known = error instanceof CalError ? error : new CalError(500, "Internal Server Error");
      return errorResponse(known, url.pathname + url.search, now());
    });
    return rateHeaders(response, now());
  };

  return {
    handler,
    bookings: () => structuredClone(bookings),
    requests: () => [...requests],
    fail: (...more: CalFault[]) => faults.push(...more),
    held: () => holds.size,
    release: () => {
      for (const end of [...holds]) end();
    },
  };
}

export async function startCalStandIn(options: CalStandInOptions): Promise<CalStandIn> {
  const standIn = calStandInHandler(options);
  const server = await serveWeb(standIn.handler, { port: options.port ?? 0 });
  return {
    url: server.url,
    apiKey: options.apiKey,
    eventTypeId: options.eventTypeId,
    bookings: standIn.bookings,
    requests: standIn.requests,
    fail: standIn.fail,
    held: standIn.held,
    release: standIn.release,
    async close() {
      standIn.release();
      await server.close();
    },
  };
}
