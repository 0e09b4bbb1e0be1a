import { describe, expect, it } from "vitest";
import {
  cancelBooking,
  createBooking,
  findBooking,
  freeStarts,
  ProviderUnavailable,
  SlotTaken,
  type CalCom,
} from "../../src/booking/cal-com.ts";
import { ConfigurationError } from "../../src/config/env.ts";

/**
 * src/booking/cal-com.ts against a scripted fetch: what each call sends Cal.com (path, version, key, query, body) and
 * how each answer is read (a booking, SlotTaken, ProviderUnavailable with Cal.com's wait, a ConfigurationError).
 * tests/doors/booking.test.ts books through the Cal.com stand-in; these pin what the stand-in does not vary.
 */
interface Sent {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  timeout: boolean;
}

/** A Cal.com whose every call answers `answer` (a status and a JSON body, or a thrown error), recording what it was sent. */
function scripted(answer: () => Response | Promise<Response>, extra: Partial<CalCom> = {}) {
  const sent: Sent[] = [];
  const cal: CalCom = {
    apiUrl: "https://cal.test//",
    eventTypeId: 7,
    apiKey: "cal_key",
    ...extra,
    fetch: async (input, init) => {
      const body = init?.body;
      sent.push({
        url: new URL(String(input)),
        method: init?.method ?? "GET",
        headers: init?.headers as Record<string, string>,
        body: typeof body === "string" ? JSON.parse(body) : body,
        timeout: init?.signal instanceof AbortSignal,
      });
      return answer();
    },
  };
  return { cal, sent };
}

const reply =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const calBooking = (extra: Record<string, unknown> = {}) => ({
  uid: "uid-1",
  start: "2050-09-01T09:00:00.000Z",
  end: "2050-09-01T09:30:00.000Z",
  status: "accepted",
  attendees: [{ email: "Ada@Engines.example" }],
  metadata: { frontdoor_booking: "bk_1" },
  ...extra,
});

const request = {
  start: "2050-09-01T09:00:00.000Z",
  attendee: { name: "Ada", email: "ada@engines.example", timeZone: "Europe/London" },
};

it("names its errors as the log lines show them", () => {
  expect([new SlotTaken("taken").name, new ProviderUnavailable("down").name]).toEqual(["SlotTaken", "ProviderUnavailable"]);
});

describe("free starts", () => {
  it("asks /v2/slots for the event type and the instants, in the zone, with the slots' version and no key", async () => {
    const { cal, sent } = scripted(
      reply(200, { status: "success", data: { "2050-09-01": [{ start: "a" }, { start: "b" }], "2050-09-02": [{ start: "c" }] } }),
    );
    const from = new Date("2050-09-01T00:00:00Z");
    const to = new Date("2050-09-07T23:59:59Z");
    expect(await freeStarts(cal, { from, to, timeZone: "UTC" })).toEqual(["a", "b", "c"]);
    const [{ url, method, headers, body, timeout }] = sent as [Sent];
    expect(`${url.origin}${url.pathname}`).toBe("https://cal.test/v2/slots");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      eventTypeId: "7",
      start: from.toISOString(),
      end: to.toISOString(),
      timeZone: "UTC",
    });
    expect({ method, headers, body, timeout }).toEqual({
      method: "GET",
      headers: { "cal-api-version": "2024-09-04", accept: "application/json" },
      body: undefined,
      timeout: true,
    });
  });

  it("reads no data as no free starts, and data in another shape as Cal.com unavailable", async () => {
    const range = { from: new Date(0), to: new Date(1), timeZone: "UTC" };
    expect(await freeStarts(scripted(reply(200, { status: "success" })).cal, range)).toEqual([]);
    await expect(freeStarts(scripted(reply(200, { data: { day: [{ at: "x" }] } })).cal, range)).rejects.toThrow(
      new ProviderUnavailable("Cal.com answered the free times in a shape its API v2 does not describe"),
    );
  });

  it("reads a refusal of the event type as the deployment's fault, naming the variables", async () => {
    const { cal } = scripted(reply(404, { status: "error", error: { message: "Event type not found" } }));
    const refused = freeStarts(cal, { from: new Date(0), to: new Date(1), timeZone: "UTC" });
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(
      "Cal.com refused the free times (HTTP 404: Event type not found): check CAL_EVENT_TYPE_ID, CAL_API_URL and CAL_API_KEY",
    );
  });
});

describe("an answer that says nothing happened", () => {
  const range = { from: new Date(0), to: new Date(1), timeZone: "UTC" };
  const unavailable = async (answer: () => Response | Promise<Response>) => {
    const error = await freeStarts(scripted(answer).cal, range).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    return error as ProviderUnavailable;
  };

  it.each([
    ["a 503 with Retry-After", reply(503, {}, { "retry-after": "12" }), "answered 503", 12],
    ["a 500 without one", reply(500, {}), "answered 500", undefined],
    ["a 429 with the window's reset", reply(429, {}, { "x-ratelimit-reset-default": "30" }), "answered 429", 30],
    ["a 429 whose Retry-After comes first", reply(429, {}, { "retry-after": "5", "x-ratelimit-reset-default": "30" }), "answered 429", 5],
    ["a 429 with a wait of 0", reply(429, {}, { "retry-after": "0" }), "answered 429", undefined],
    ["a 429 with a wait that is no number", reply(429, {}, { "retry-after": "soon" }), "answered 429", undefined],
    ["a 200 that is not JSON", () => new Response("<html>proxy</html>", { status: 200 }), "answered 200", undefined],
  ])("reads %s as ProviderUnavailable with Cal.com's wait", async (_, answer, words, wait) => {
    const error = await unavailable(answer);
    expect(error.message).toBe(`Cal.com GET /v2/slots ${words}`);
    expect(error.retryAfterSeconds).toBe(wait);
  });

  it("reads a reset header on an answer other than a 429 as no wait", async () => {
    expect((await unavailable(reply(503, {}, { "x-ratelimit-reset-default": "30" }))).retryAfterSeconds).toBeUndefined();
  });

  it("reads a call that never answered as ProviderUnavailable, naming what went wrong", async () => {
    const error = await unavailable(() => Promise.reject(new DOMException("late", "TimeoutError")));
    expect(error.message).toBe("Cal.com GET /v2/slots did not answer: TimeoutError");
    expect((await unavailable(() => Promise.reject("down"))).message).toBe("Cal.com GET /v2/slots did not answer: down");
  });
});

describe("a booking", () => {
  it("posts the event type, start, attendee in English and metadata with the bookings' version, and reads the booking", async () => {
    const { cal, sent } = scripted(reply(201, { status: "success", data: calBooking() }));
    const made = await createBooking(cal, { ...request, metadata: { frontdoor_booking: "bk_1" } });
    expect(made).toEqual({
      uid: "uid-1",
      start: "2050-09-01T09:00:00.000Z",
      end: "2050-09-01T09:30:00.000Z",
      status: "accepted",
      attendeeEmail: "Ada@Engines.example",
      ours: "bk_1",
    });
    const [{ url, method, headers, body }] = sent as [Sent];
    expect([method, url.href]).toEqual(["POST", "https://cal.test/v2/bookings"]);
    expect(headers).toEqual({ "cal-api-version": "2026-02-25", accept: "application/json", "content-type": "application/json" });
    expect(body).toEqual({
      eventTypeId: 7,
      start: request.start,
      attendee: { ...request.attendee, language: "en" },
      metadata: { frontdoor_booking: "bk_1" },
    });
  });

  it("reads a booking without attendees as one for no e-mail", async () => {
    const made = await createBooking(scripted(reply(201, { data: calBooking({ attendees: [] }) })).cal, request);
    expect(made.attendeeEmail).toBe("");
  });

  it("sends empty metadata when none is given, and reads a 200 as a booking too", async () => {
    const { cal, sent } = scripted(reply(200, { data: calBooking({ metadata: null, attendees: undefined }) }));
    const made = await createBooking(cal, request);
    expect(made).toEqual({ uid: "uid-1", start: calBooking().start, end: calBooking().end, status: "accepted", attendeeEmail: "" });
    expect((sent[0]!.body as { metadata: unknown }).metadata).toEqual({});
  });

  it.each([
    ["an empty uid", { uid: "" }],
    ["a start that is no time", { start: "soon" }],
    ["an end that is no time", { end: "later" }],
  ])("reads a booking with %s as Cal.com unavailable", async (_, wrong) => {
    await expect(createBooking(scripted(reply(201, { data: calBooking(wrong) })).cal, request)).rejects.toThrow(
      new ProviderUnavailable("Cal.com answered a booking in a shape its API v2 does not describe"),
    );
  });

  it("reads a metadata id that is not a string as none of ours", async () => {
    const made = await createBooking(scripted(reply(201, { data: calBooking({ metadata: { frontdoor_booking: 1 } }) })).cal, request);
    expect(made).not.toHaveProperty("ours");
  });

  it.each([
    ["a conflict", 409, "anything"],
    ["a taken time", 400, "User either already has booking at this time or is not available"],
    ["a start outside the window", 400, `The event type can't be booked at the "start" time provided.`],
    ["a time in the past", 400, "Attempting to book a meeting in the past."],
    ["a reserved slot", 400, "Someone else reserved this slot"],
  ])("reads %s as SlotTaken, with Cal.com's words", async (_, status, message) => {
    const taken = createBooking(scripted(reply(status, { status: "error", error: { message } })).cal, request);
    await expect(taken).rejects.toThrow(new SlotTaken(message));
  });

  it("reads any other 400, or those words in another status, as the deployment's fault", async () => {
    const refused = createBooking(scripted(reply(400, { status: "error", error: { message: "eventTypeId invalid" } })).cal, request);
    await expect(refused).rejects.toThrow(
      new ConfigurationError(
        "Cal.com refused a booking (HTTP 400: eventTypeId invalid): check CAL_EVENT_TYPE_ID, CAL_API_URL and CAL_API_KEY",
      ),
    );
    await expect(createBooking(scripted(reply(401, {})).cal, request)).rejects.toThrow("Cal.com refused a booking (HTTP 401: HTTP 401)");
    // Cal.com's words for a taken time mean one only in a 400.
    const forbidden = reply(403, { error: { message: "User is not available" } });
    await expect(createBooking(scripted(forbidden).cal, request)).rejects.toThrow(ConfigurationError);
  });
});

describe("the look-up of a booking", () => {
  const at = { start: "2050-09-01T10:00:00+01:00", attendeeEmail: "ada@engines.example" };

  it("asks with the API key for the attendee's upcoming bookings around the start", async () => {
    const { cal, sent } = scripted(reply(200, { data: [] }));
    expect(await findBooking(cal, at)).toBeUndefined();
    const [{ url, method, headers }] = sent as [Sent];
    expect([method, url.pathname]).toEqual(["GET", "/v2/bookings"]);
    expect(headers).toEqual({ "cal-api-version": "2026-02-25", accept: "application/json", authorization: "Bearer cal_key" });
    expect(Object.fromEntries(url.searchParams)).toEqual({
      attendeeEmail: at.attendeeEmail,
      eventTypeId: "7",
      afterStart: "2050-09-01T08:59:00.000Z",
      beforeEnd: "2050-09-02T09:00:00.000Z",
      status: "upcoming,unconfirmed",
      take: "10",
    });
  });

  it("finds the attendee's booking at that very instant, their e-mail in any case", async () => {
    const bookings = [
      calBooking({ uid: "later", start: "2050-09-01T09:30:00.000Z" }),
      calBooking({ uid: "someone-else", attendees: [{ email: "bob@engines.example" }] }),
      calBooking({ uid: "theirs" }),
    ];
    expect((await findBooking(scripted(reply(200, { data: bookings })).cal, at))?.uid).toBe("theirs");
    expect(await findBooking(scripted(reply(200, {})).cal, at)).toBeUndefined();
  });

  it("reads data that is no list as Cal.com unavailable, and a refusal as the deployment's fault", async () => {
    await expect(findBooking(scripted(reply(200, { data: {} })).cal, at)).rejects.toThrow(
      new ProviderUnavailable("Cal.com answered the booking look-up in a shape its API v2 does not describe"),
    );
    await expect(findBooking(scripted(reply(403, { error: { message: "no" } })).cal, at)).rejects.toThrow(
      "Cal.com refused the booking look-up (HTTP 403: no)",
    );
  });
});

describe("a cancellation", () => {
  it("posts the reason to the booking's own path", async () => {
    const { cal, sent } = scripted(reply(200, { status: "success" }));
    await cancelBooking(cal, "uid/1", "Plans changed.");
    expect([sent[0]!.method, sent[0]!.url.pathname, sent[0]!.body]).toEqual([
      "POST",
      "/v2/bookings/uid%2F1/cancel",
      { cancellationReason: "Plans changed." },
    ]);
  });

  it.each([
    ["a booking Cal.com no longer has", 404, "not found"],
    ["a booking already cancelled", 400, "Booking is already Cancelled"],
  ])("takes %s as cancelled", async (_, status, message) => {
    await expect(cancelBooking(scripted(reply(status, { error: { message } })).cal, "uid-1", "r")).resolves.toBeUndefined();
  });

  it("reads any other refusal as the deployment's fault", async () => {
    await expect(cancelBooking(scripted(reply(400, { error: { message: "bad uid" } })).cal, "uid-1", "r")).rejects.toThrow(
      "Cal.com refused a cancellation (HTTP 400: bad uid)",
    );
    await expect(cancelBooking(scripted(reply(401, {})).cal, "uid-1", "r")).rejects.toThrow(ConfigurationError);
    const forbidden = reply(403, { error: { message: "You may not cancel this booking" } });
    await expect(cancelBooking(scripted(forbidden).cal, "uid-1", "r")).rejects.toThrow(ConfigurationError);
  });
});
