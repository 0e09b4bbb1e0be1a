import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { calStandInHandler, startCalStandIn, type CalStandInOptions, type OfficeHours } from "../../scripts/local-calcom/standin.ts";
import { testLimit } from "../support/patience.ts";

const KEY = "cal_test_standin";
const weekdays: OfficeHours["days"] = ["monday", "tuesday", "wednesday", "thursday", "friday"];
const paris: OfficeHours = { time_zone: "Europe/Paris", days: weekdays, opens: "09:00", closes: "17:00" };
const MSG_TAKEN = "User either already has booking at this time or is not available";
const MSG_OUT_OF_BOUNDS =
  `The event type can't be booked at the "start" time provided. This could be because it's too soon (violating the minimum ` +
  `booking notice) or too far in the future (outside the event's scheduling window). Try fetching available slots first ` +
  `using the GET /v2/slots endpoint and then make a booking with "start" time equal to one of the available slots: ` +
  `https://cal.com/docs/api-reference/v2/slots`;
const MSG_METADATA =
  "metadata property is wrong,Metadata must have at most 50 keys, each key up to 40 characters, and string values up to 500 characters. ";

let clock: Date;
beforeEach(() => {
  clock = new Date("2050-09-01T06:00:00Z"); // a Thursday, 08:00 in Paris
});

type StandIn = ReturnType<typeof calStandInHandler>;
const standIn = (options: Partial<CalStandInOptions> = {}): StandIn =>
  calStandInHandler({ eventTypeId: 1, lengthMinutes: 30, hours: paris, apiKey: KEY, now: () => clock, timeoutMs: 40, ...options });

interface Call {
  method?: string;
  version?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}
function call(s: StandIn, path: string, { method = "GET", version = "2026-02-25", body, headers = {} }: Call = {}) {
  const all = {
    ...headers,
    ...(version && { "cal-api-version": version }),
    ...(body !== undefined && { "content-type": "application/json" }),
  };
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return s.handler(new Request(`http://cal.test${path}`, { method, headers: all, body: text }));
}
const slots = (s: StandIn, query: string, version: string | null = "2024-09-04") => call(s, `/v2/slots?${query}`, { version });
const starts = async (response: Response) => {
  const body = (await response.json()) as { data: Record<string, { start: string }[]> };
  return Object.values(body.data).flatMap((day) => day.map((slot) => slot.start));
};
const attendee = { name: "Lena M", email: "lena@example.com", timeZone: "Europe/Berlin" };
const book = (s: StandIn, start: string, extra: Record<string, unknown> = {}, version = "2026-02-25") =>
  call(s, "/v2/bookings", { method: "POST", version, body: { start, eventTypeId: 1, attendee, ...extra } });
const list = (s: StandIn, query = "", key: string | null = KEY) =>
  call(s, `/v2/bookings${query}`, { version: "2024-08-13", headers: key ? { authorization: `Bearer ${key}` } : {} });

async function expectError(response: Response, status: number, code: string, message: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { status: string; error: { code: string; message: string } };
  expect(body.status).toBe("error");
  expect(body.error.code).toBe(code);
  expect(body.error.message).toBe(message);
  return body;
}

describe("GET /v2/slots", () => {
  it("offers every 30 minutes of the office hours, written in the requested zone with milliseconds", async () => {
    const s = standIn();
    const rome = (await (await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05&timeZone=Europe/Rome")).json()) as {
      status: string;
      data: Record<string, { start: string }[]>;
    };
    expect(rome.status).toBe("success");
    expect(Object.keys(rome.data)).toEqual(["2050-09-05"]);
    expect(rome.data["2050-09-05"]).toHaveLength(16);
    expect(rome.data["2050-09-05"]![0]).toEqual({ start: "2050-09-05T09:00:00.000+02:00" });
    expect(rome.data["2050-09-05"]!.at(-1)).toEqual({ start: "2050-09-05T16:30:00.000+02:00" });
    const utc = await starts(await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05"));
    expect(utc[0]).toBe("2050-09-05T07:00:00.000Z");
  });

  it("groups slots by the date in the requested zone", async () => {
    const s = standIn();
    const body = (await (await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05&timeZone=Pacific/Auckland")).json()) as {
      data: Record<string, { start: string }[]>;
    };
    expect(Object.keys(body.data)).toEqual(["2050-09-05", "2050-09-06"]);
    expect(body.data["2050-09-05"]![0]!.start).toBe("2050-09-05T19:00:00.000+12:00");
    expect(body.data["2050-09-05"]).toHaveLength(10);
    expect(body.data["2050-09-06"]!.at(-1)!.start).toBe("2050-09-06T02:30:00.000+12:00");
  });

  it("follows the office's clock through a DST change (America/Los_Angeles, November 2050)", async () => {
    clock = new Date("2050-10-01T00:00:00Z");
    const s = standIn({ hours: { ...paris, time_zone: "America/Los_Angeles" } });
    const query = "eventTypeId=1&start=2050-11-04T07:00:00Z&end=2050-11-08T08:00:00Z&timeZone=America/Los_Angeles";
    const body = (await (await slots(s, query)).json()) as { data: Record<string, { start: string }[]> };
    expect(Object.keys(body.data)).toEqual(["2050-11-04", "2050-11-07"]); // the weekend between is closed
    expect(body.data["2050-11-04"]![0]!.start).toBe("2050-11-04T09:00:00.000-07:00");
    expect(body.data["2050-11-07"]![0]!.start).toBe("2050-11-07T09:00:00.000-08:00");
    expect(body.data["2050-11-07"]).toHaveLength(16);
    const utc = await starts(await slots(s, "eventTypeId=1&start=2050-11-04&end=2050-11-07"));
    expect(utc).toContain("2050-11-04T16:00:00.000Z");
    expect(utc).toContain("2050-11-07T17:00:00.000Z");
    expect(utc).not.toContain("2050-11-07T16:00:00.000Z");
  });

  it("adds the end with format=range, and answers {} when nothing is free", async () => {
    const s = standIn();
    const range = (await (await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05&format=RANGE")).json()) as {
      data: Record<string, object[]>;
    };
    expect(range.data["2050-09-05"]![0]).toEqual({ start: "2050-09-05T07:00:00.000Z", end: "2050-09-05T07:30:00.000Z" });
    expect(await (await slots(s, "eventTypeId=1&start=2050-09-03&end=2050-09-04")).json()).toEqual({ status: "success", data: {} });
  });

  it("keeps the minimum notice and the booking window", async () => {
    clock = new Date("2050-09-01T07:00:00Z"); // 09:00 in Paris
    const s = standIn({ bookingWindowDays: 5 });
    const today = await starts(await slots(s, "eventTypeId=1&start=2050-09-01&end=2050-09-01"));
    expect(today[0]).toBe("2050-09-01T09:00:00.000Z"); // 11:00 in Paris: two hours' notice
    expect(today).toHaveLength(12);
    const later = await starts(await slots(s, "eventTypeId=1&start=2050-09-01&end=2050-09-30"));
    expect(later.at(-1)).toBe("2050-09-06T07:00:00.000Z"); // exactly five days from now
  });

  it("refuses unknown query keys, bad values and other event types as Cal.com does", async () => {
    const s = standIn();
    const base = "eventTypeId=1&start=2050-09-05&end=2050-09-05";
    await expectError(await slots(s, `${base}&foo=1`), 400, "BadRequestException", "foo property is wrong,property foo should not exist ");
    await expectError(
      await slots(s, `${base}&timeZone=Mars/Base`),
      400,
      "BadRequestException",
      "timeZone property is wrong,timeZone must be a valid IANA time-zone ",
    );
    await expectError(
      await slots(s, "eventTypeId=1&end=2050-09-05"),
      400,
      "BadRequestException",
      "start property is wrong,start must be a valid ISO 8601 date string ",
    );
    await expectError(await slots(s, "eventTypeId=2&start=2050-09-05&end=2050-09-05"), 404, "NotFoundException", "Event Type not found");
  });

  it("is no route without cal-api-version 2024-09-04", async () => {
    const s = standIn();
    const query = "eventTypeId=1&start=2050-09-05&end=2050-09-05";
    for (const version of [null, "2024-08-13"]) {
      const body = await expectError(await slots(s, query, version), 404, "NotFoundException", `Cannot GET /v2/slots?${query}`);
      expect(body).toMatchObject({ path: `/v2/slots?${query}` });
    }
  });
});

describe("POST /v2/bookings", () => {
  it("books a free slot: 201 with Cal.com's booking shape and rate-limit headers", async () => {
    const s = standIn();
    const response = await book(s, "2050-09-05T07:00:00Z", { metadata: { lead: "b1" }, bookingFieldsResponses: { notes: "hi" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-ratelimit-limit-default")).toBe("120");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const { status, data } = (await response.json()) as { status: string; data: Record<string, unknown> };
    expect(status).toBe("success");
    expect(data).toMatchObject({
      id: 1,
      status: "accepted",
      start: "2050-09-05T07:00:00.000Z",
      end: "2050-09-05T07:30:00.000Z",
      duration: 30,
      eventTypeId: 1,
      eventType: { id: 1, slug: "intro-call" },
      attendees: [
        {
          name: "Lena M",
          email: "lena@example.com",
          displayEmail: "lena@example.com",
          timeZone: "Europe/Berlin",
          language: "en",
          absent: false,
        },
      ],
      guests: [],
      absentHost: false,
      createdAt: "2050-09-01T06:00:00.000Z",
      metadata: { lead: "b1" },
      bookingFieldsResponses: { name: "Lena M", email: "lena@example.com", notes: "hi" },
    });
    expect(data.uid).toMatch(/^[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(data.hosts).toHaveLength(1);
    expect(data.meetingUrl).toBe(data.location);
    const again = await call(s, `/v2/bookings/${String(data.uid)}`);
    expect(await again.json()).toEqual({ status: "success", data });
    await expectError(await call(s, "/v2/bookings/nope"), 404, "NotFoundException", "Booking with uid=nope was not found in the database");
  });

  it("refuses a taken slot with Cal.com's 400, and fresh slots leave it out", async () => {
    const s = standIn();
    expect((await book(s, "2050-09-05T07:00:00Z")).status).toBe(201);
    const body = await expectError(await book(s, "2050-09-05T07:00:00Z"), 400, "BadRequestException", MSG_TAKEN);
    expect(body).toMatchObject({ path: "/v2/bookings", error: { details: { message: MSG_TAKEN, error: "Bad Request", statusCode: 400 } } });
    const free = await starts(await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05"));
    expect(free).not.toContain("2050-09-05T07:00:00.000Z");
    expect(free).toHaveLength(15);
    expect(s.bookings()).toHaveLength(1);
  });

  it("books one of two concurrent requests for the same start", async () => {
    const s = standIn();
    const answers = await Promise.all([book(s, "2050-09-05T08:00:00Z"), book(s, "2050-09-05T08:00:00Z", {}, "2024-08-13")]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(s.bookings()).toHaveLength(1);
  });

  it("refuses starts in the past, inside the notice, beyond the window or off the office's slots", async () => {
    const s = standIn({ bookingWindowDays: 5 });
    await expectError(await book(s, "2050-08-31T07:00:00Z"), 400, "BadRequestException", "Attempting to book a meeting in the past.");
    for (const start of [
      "2050-09-01T07:00:00Z",
      "2050-09-07T07:00:00Z",
      "2050-09-05T07:10:00Z",
      "2050-09-05T15:00:00Z",
      "2050-09-03T08:00:00Z",
    ])
      await expectError(await book(s, start), 400, "BadRequestException", MSG_OUT_OF_BOUNDS);
    expect(s.bookings()).toEqual([]);
  });

  it("validates the body as CreateBookingInput_2024_08_13", async () => {
    const s = standIn();
    const post = (body: unknown, version = "2026-02-25") => call(s, "/v2/bookings", { method: "POST", version, body });
    await expectError(await post(""), 400, "BadRequestException", "Body is required");
    await expectError(
      await book(s, "2050-09-05T07:00:00Z", { timeZone: "Europe/Berlin" }),
      400,
      "BadRequestException",
      "timeZone property is wrong,property timeZone should not exist ",
    );
    await expectError(
      await post({ start: "2050-09-05T07:00:00Z", eventTypeId: 1, attendee: { ...attendee, timeZone: "Mars/Base" } }),
      400,
      "BadRequestException",
      "attendee property is wrong, timeZone property is wrong,timeZone must be a valid IANA time-zone ",
    );
    await expectError(
      await book(s, "2050-09-05T07:00:00Z", { eventTypeId: 7 }),
      404,
      "NotFoundException",
      "Event type with id 7 not found.",
    );
    const legacy = await post({ start: "2050-09-05T07:00:00Z", eventTypeId: 1, attendee }, "");
    expect(legacy.status).toBe(400);
    expect(((await legacy.json()) as { error: { message: string } }).error.message).toMatch(/2024-04-15/);
    expect(s.bookings()).toEqual([]);
  });

  it("keeps Cal.com's metadata limits: 50 keys, keys up to 40 characters, values strings up to 500, numbers or booleans", async () => {
    const s = standIn();
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    for (const metadata of [tooMany, { ["k".repeat(41)]: "v" }, { k: "v".repeat(501) }, { nested: { a: "b" } }])
      await expectError(await book(s, "2050-09-05T07:00:00Z", { metadata }), 400, "BadRequestException", MSG_METADATA);
    const atLimit = {
      ...Object.fromEntries(Array.from({ length: 47 }, (_, i) => [`k${i}`, "v"])),
      ["k".repeat(40)]: "v".repeat(500),
      n: 5,
      b: true,
    };
    const response = await book(s, "2050-09-05T07:00:00Z", { metadata: atLimit });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { data: { metadata: unknown } }).data.metadata).toEqual(atLimit);
  });
});

describe("GET /v2/bookings", () => {
  it("needs the API key: 403 without credentials, 401 with a wrong key", async () => {
    const s = standIn();
    await expectError(
      await list(s, "", null),
      403,
      "ForbiddenException",
      "PermissionsGuard - no authentication provided. Provide either authorization bearer token containing managed user access " +
        "token or oAuth client id in 'x-cal-client-id' header.",
    );
    await expectError(
      await list(s, "", "cal_test_wrong"),
      401,
      "UnauthorizedException",
      "ApiAuthStrategy - api key - Your api key is not valid",
    );
  });

  it("filters by attendee, event type, time and status, and pages", async () => {
    const s = standIn();
    const uid = async (r: Response) => ((await r.json()) as { data: { uid: string } }).data.uid;
    const monday = await uid(await book(s, "2050-09-05T07:00:00Z"));
    const other = await uid(await book(s, "2050-09-05T08:00:00Z", { attendee: { ...attendee, email: "other@example.com" } }));
    const tuesday = await uid(await book(s, "2050-09-06T07:00:00Z"));
    await call(s, `/v2/bookings/${other}/cancel`, { method: "POST", body: {} });
    const uids = async (query: string) => ((await (await list(s, query)).json()) as { data: { uid: string }[] }).data.map((b) => b.uid);

    expect(await uids("")).toEqual([monday, other, tuesday]);
    expect(await uids("?attendeeEmail=%20lena@example.com%20&unknown=1")).toEqual([monday, tuesday]);
    expect(await uids("?eventTypeId=1&status=upcoming")).toEqual([monday, tuesday]);
    expect(await uids("?eventTypeId=2")).toEqual([]);
    expect(await uids("?status=cancelled")).toEqual([other]);
    expect(await uids("?status=upcoming,cancelled&sortStart=desc")).toEqual([tuesday, other, monday]);
    expect(await uids("?afterStart=2050-09-05T06:59:00Z&beforeEnd=2050-09-05T07:31:00Z")).toEqual([monday]);
    clock = new Date("2050-09-05T12:00:00Z");
    expect(await uids("?status=past")).toEqual([monday]);

    const page = (await (await list(s, "?take=1&skip=1")).json()) as { data: unknown[]; pagination: unknown };
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toEqual({
      totalItems: 3,
      remainingItems: 1,
      returnedItems: 1,
      itemsPerPage: 1,
      currentPage: 2,
      totalPages: 3,
      hasNextPage: true,
      hasPreviousPage: true,
    });
    await expectError(await list(s, "?take=251"), 400, "BadRequestException", "Bad Request Exception");
    await expectError(await list(s, "?status=booked"), 400, "BadRequestException", "Bad Request Exception");
  });
});

describe("POST /v2/bookings/{uid}/cancel", () => {
  it("cancels, frees the slot, and refuses a second cancel", async () => {
    const s = standIn();
    const { data } = (await (await book(s, "2050-09-05T07:00:00Z")).json()) as { data: { uid: string } };
    const cancel = (body: unknown) => call(s, `/v2/bookings/${data.uid}/cancel`, { method: "POST", body });
    await expectError(
      await cancel({ reason: "x" }),
      400,
      "BadRequestException",
      "reason property is wrong,property reason should not exist ",
    );
    const response = await cancel({ cancellationReason: "Plans changed" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown }).data).toMatchObject({
      uid: data.uid,
      status: "cancelled",
      cancellationReason: "Plans changed",
    });
    expect(await starts(await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05"))).toContain("2050-09-05T07:00:00.000Z");
    expect((await book(s, "2050-09-05T07:00:00Z")).status).toBe(201);
    await expectError(
      await call(s, `/v2/bookings/${data.uid}/cancel`, { method: "POST" }),
      400,
      "BadRequestException",
      `Can't cancel booking with uid=${data.uid} because it has been cancelled already. Please provide uid of a booking that is not cancelled.`,
    );
    await expectError(
      await call(s, "/v2/bookings/nope/cancel", { method: "POST" }),
      404,
      "NotFoundException",
      "Booking with uid=nope not found",
    );
  });
});

describe("the data file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "frontdoor-calcom-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("keeps bookings across a restart, and a missing file is no bookings", async () => {
    const dataFile = join(dir, "calcom.json");
    const first = standIn({ dataFile });
    expect(first.bookings()).toEqual([]);
    const { data } = (await (await book(first, "2050-09-05T07:00:00Z")).json()) as { data: { uid: string } };
    await call(first, `/v2/bookings/${data.uid}/cancel`, { method: "POST", body: { cancellationReason: "moved" } });
    await book(first, "2050-09-05T08:00:00Z");
    expect(JSON.parse(await readFile(dataFile, "utf8"))).toMatchObject({ format: "frontdoor-local-calcom/1" });

    const second = standIn({ dataFile });
    expect(second.bookings()).toEqual(first.bookings());
    await expectError(await book(second, "2050-09-05T08:00:00Z"), 400, "BadRequestException", MSG_TAKEN);
    const next = (await (await book(second, "2050-09-05T07:00:00Z")).json()) as { data: { id: number } };
    expect(next.data.id).toBe(3);
  });

  it("refuses to start from a file it cannot read, naming the file", async () => {
    const dataFile = join(dir, "calcom.json");
    await writeFile(dataFile, "{not json");
    expect(() => standIn({ dataFile })).toThrow(dataFile);
    await writeFile(dataFile, JSON.stringify({ format: "frontdoor-local-calcom/1", bookings: [{ id: "x" }] }));
    expect(() => standIn({ dataFile })).toThrow(/calcom\.json cannot be read: its "bookings"/);
  });
});

describe("faults", () => {
  it("answers 500, 503 and 429 once each, then serves again", async () => {
    const s = standIn();
    s.fail("500", "503", "429");
    await expectError(await book(s, "2050-09-05T07:00:00Z"), 500, "InternalServerErrorException", "Internal Server Error");
    await expectError(
      await slots(s, "eventTypeId=1&start=2050-09-05&end=2050-09-05"),
      503,
      "ServiceUnavailableException",
      "Service Unavailable",
    );
    const throttled = await book(s, "2050-09-05T07:00:00Z");
    const body = await expectError(throttled, 429, "ThrottlerException", "Too many requests. Please try again later.");
    expect(body).toMatchObject({ error: { details: "Too many requests. Please try again later." } });
    expect(throttled.headers.get("x-ratelimit-remaining-default")).toBe("0");
    expect(s.bookings()).toEqual([]);
    expect((await book(s, "2050-09-05T07:00:00Z")).status).toBe(201);
  });

  it("holds a timeout and then answers 503 without booking", async () => {
    const s = standIn();
    s.fail("timeout");
    const started = Date.now();
    await expectError(await book(s, "2050-09-05T07:00:00Z"), 503, "ServiceUnavailableException", "Service Unavailable");
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(s.bookings()).toEqual([]);
  });

  it("books on accept-then-timeout before it answers, late, with the 201, once its hold ends", async () => {
    // Held until released: the test says when the time is up, not a timer racing the look.
    const s = standIn({ timeoutMs: testLimit });
    s.fail("accept-then-timeout");
    const pending = book(s, "2050-09-05T07:00:00Z");
    await expect.poll(() => s.held()).toBe(1);
    expect(s.bookings()).toHaveLength(1); // made while the answer is still held
    s.release();
    expect(s.held()).toBe(0);
    expect((await pending).status).toBe(201);
    await expectError(await book(s, "2050-09-05T07:00:00Z"), 400, "BadRequestException", MSG_TAKEN);
  });

  it("takes faults over HTTP, spends them only on slots and booking requests, and lists bookings", async () => {
    const s = standIn();
    const queued = await s.handler(new Request("http://cal.test/_standin/faults", { method: "POST", body: JSON.stringify(["500"]) }));
    expect(queued.status).toBe(204);
    expect((await list(s)).status).toBe(200);
    expect((await book(s, "2050-09-05T07:00:00Z")).status).toBe(500);
    expect((await book(s, "2050-09-05T07:00:00Z")).status).toBe(201);
    const control = (await (await s.handler(new Request("http://cal.test/_standin/bookings"))).json()) as { bookings: unknown[] };
    expect(control.bookings).toEqual(s.bookings());
  });
});

describe("routes", () => {
  it("answers an unknown route with Nest's 404", async () => {
    const s = standIn();
    const body = await expectError(await call(s, "/v2/nope?x=1"), 404, "NotFoundException", "Cannot GET /v2/nope?x=1");
    expect(body).toMatchObject({ path: "/v2/nope?x=1", error: { details: { statusCode: 404, error: "Not Found" } } });
  });

  it("serves on a free port", async () => {
    const server = await startCalStandIn({ eventTypeId: 1, lengthMinutes: 30, hours: paris, apiKey: KEY, now: () => clock });
    try {
      const response = await fetch(`${server.url}/v2/slots?eventTypeId=1&start=2050-09-05&end=2050-09-05`, {
        headers: { "cal-api-version": "2024-09-04" },
      });
      expect(await starts(response)).toHaveLength(16);
    } finally {
      await server.close();
    }
  });
});
