import { describe, expect, it } from "vitest";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { Redis } from "@upstash/redis";
import { deliverDue } from "../../src/briefs/deliver.ts";
import { sha256Hex } from "../../src/store/ids.ts";
import { freshBrief } from "../support/briefs.ts";
import { fileDeployment, type Deployment } from "../support/deployment.ts";
import { person, type FreeTimes } from "../support/booking.ts";

/**
 * The intro call over REST, in-process, against the local Cal.com stand-in (the API Cal.com documents): free times, a
 * booking with svc:brief, its privacy, a time that is taken (and two agents racing for one), Idempotency-Key, the
 * lead of the grant's own brief, dry runs, bodies refused, what a browser may read, HEAD, a provider that fails or answers
 * too late, and the grant's quota.
 */
const { d } = fileDeployment("local");
/**
 * The same, but its client waits a second for Cal.com: for the tests of a call Cal.com never answers, whose fault holds
 * the answer until the deployment closes, so that the client's deadline is reached whatever the machine's load. The
 * other deployment waits the shared patience, as every call that is meant to be answered does.
 */
const { d: late } = fileDeployment("local", { env: { FRONTDOOR_CAL_TIMEOUT_MS: "1000" } });

const la = "America/Los_Angeles";
const json = (body: unknown, token?: string, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  body: JSON.stringify(body),
});
const get = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });

/** Forgets every kept free time, so the next read asks Cal.com whichever test read the same weeks before. */
async function forgetFreeTimes(on: Deployment = d) {
  const redis = new Redis({ url: on.store.url, token: on.store.token, enableTelemetry: false });
  const kept = await redis.keys("booking:free:*");
  if (kept.length > 0) await redis.del(...kept);
}

/** How often the store was asked for the record of Idempotency-Key `key`: a request reads it once it finds the key claimed. */
async function readsOfKey(key: string): Promise<number> {
  const hash = await sha256Hex(key);
  return d.store.commands.filter(([name, at]) => String(name).toLowerCase() === "get" && String(at).endsWith(`:${hash}`)).length;
}

/** Free starts of the next three weeks, in the studio's time zone; each test takes its own. */
let taken = 0;
async function freeStart(on: Deployment = d): Promise<string> {
  const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
  const res = await on.api(`/api/v1/free-times?from=${day(1)}&to=${day(21)}&time_zone=${la}`);
  expect(res.status).toBe(200);
  const { times } = (await res.json()) as FreeTimes;
  // Far from the start of the list, so that notice and the stand-in's clock never make one of them stale.
  return times[10 + taken++]!.start;
}

// First, as the door is built on its first request: per-test coverage credits its routes to this test alone.
describe("the door's wiring", () => {
  it("serves each route with its scope, its cache policy and its limits", async () => {
    const free = await d.api("/api/v1/free-times");
    expect([free.status, free.headers.get("cache-control")]).toEqual([200, "public, max-age=60"]);
    expect(free.headers.get("content-signal")).toBeTruthy();
    const start = await freeStart();
    const both = await d.token("svc:read svc:brief");
    const dry = await d.api("/api/v1/bookings", json(person(start, { dry_run: true }), both));
    expect([dry.status, dry.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect((await d.api("/api/v1/bookings", json({ ...person(start), message: "x".repeat(9_000) }, both))).status).toBe(413);
    const form = await d.api("/api/v1/bookings", {
      ...json({}, both),
      headers: { "content-type": "text/plain", authorization: `Bearer ${both}` },
    });
    expect([form.status, ((await form.json()) as { code: string }).code]).toEqual([400, "invalid_json"]);

    const made = await d.api("/api/v1/bookings", json(person(start), both));
    expect([made.status, made.headers.get("cache-control")]).toEqual([201, "no-store"]);
    const { booking_id } = (await made.json()) as { booking_id: string };
    const path = `/api/v1/bookings/${booking_id}`;
    // Reading needs svc:read; cancelling, svc:brief.
    expect((await d.api(path, get(await d.token("svc:brief")))).status).toBe(403);
    const read = await d.api(path, get(both));
    expect([read.status, read.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect((await d.api(`${path}/cancel`, json({}, await d.token("svc:read")))).status).toBe(403);
    expect((await d.api("/api/v1/bookings/not-an-id/cancel", json({}, both))).status).toBe(404);
    const cancelled = await d.api(`${path}/cancel`, json({}, both));
    expect([cancelled.status, cancelled.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect(await cancelled.json()).toMatchObject({ booking_id, status: "cancelled" });
  });
});

describe("free times", () => {
  it("reads a time zone in any case, answers its IANA spelling, and asks Cal.com once for all of them", async () => {
    await forgetFreeTimes();
    const from = new Date(Date.now() + 24 * 86_400_000).toISOString().slice(0, 10);
    const slotsAsked = () => d.cal.requests().filter((r) => r.path === "/v2/slots").length;
    const asked = slotsAsked();
    const answers: FreeTimes[] = [];
    const calls: number[] = [];
    for (const zone of ["Europe/Berlin", "EUROPE/BERLIN", "europe/berlin"]) {
      const res = await d.api(`/api/v1/free-times?from=${from}&to=${from}&time_zone=${zone}`);
      expect(res.status).toBe(200);
      answers.push((await res.json()) as FreeTimes);
      calls.push(slotsAsked() - asked);
    }
    for (const free of answers) expect(free).toEqual(answers[0]);
    expect(answers[0]!.time_zone).toBe("Europe/Berlin");
    // The first read asks Cal.com (one week of UTC days, or two where the day straddles them); the others ask nothing.
    expect(calls[0]).toBeGreaterThan(0);
    expect(calls).toEqual([calls[0], calls[0], calls[0]]);
    const utc = await d.api(`/api/v1/free-times?from=${from}&to=${from}&time_zone=utc`);
    expect(((await utc.json()) as FreeTimes).time_zone).toBe("UTC");
    // A newer name or a link is kept as sent, never swapped for the older name ICU still uses.
    for (const zone of ["US/Pacific", "Europe/Kyiv", "Asia/Kolkata", "America/Argentina/Buenos_Aires"]) {
      const res = await d.api(`/api/v1/free-times?from=${from}&to=${from}&time_zone=${zone}`);
      expect(((await res.json()) as FreeTimes).time_zone).toBe(zone);
    }
    // Free times are kept per week of UTC days, whatever the zone: a day asked for in any zone costs at most two weeks.
    expect(slotsAsked() - asked).toBeLessThanOrEqual(2);
  });

  it("lists the studio's hours in the time zone asked for, a week by default, each start with its end", async () => {
    const res = await d.api(`/api/v1/free-times?time_zone=Europe/Paris`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age=60/);
    const free = (await res.json()) as FreeTimes;
    expect(free).toMatchObject({ time_zone: "Europe/Paris", duration_minutes: 30 });
    expect(free.times.length).toBeGreaterThan(20);
    for (const { start, end } of free.times) {
      expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+0[12]:00$/);
      expect(Date.parse(end) - Date.parse(start)).toBe(30 * 60_000);
      // 9:00 to 17:00 in Los Angeles, Monday to Friday.
      const local = new Intl.DateTimeFormat("en-US", { timeZone: la, hourCycle: "h23", hour: "2-digit", weekday: "short" }).formatToParts(
        new Date(start),
      );
      const hour = Number(local.find((p) => p.type === "hour")!.value);
      expect(hour).toBeGreaterThanOrEqual(9);
      expect(hour).toBeLessThan(17);
      expect(["Sat", "Sun"]).not.toContain(local.find((p) => p.type === "weekday")!.value);
    }
  });

  it.each([
    ["an unknown parameter", "?when=soon", "/when"],
    ["a time zone that is not one", "?time_zone=Mars/Olympus", "/time_zone"],
    ["a day in the past", "?from=2020-01-01", "/from"],
    ["a span longer than 21 days", "?from=2099-01-01&to=2099-03-01", "/from"],
    [
      "an end before the start",
      `?from=${new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`,
      "/to",
    ],
    ["a parameter given twice", "?time_zone=Europe/Paris&time_zone=UTC", "/time_zone"],
  ])("refuses %s with invalid_query naming the parameter", async (_, query, field) => {
    const res = await d.api(`/api/v1/free-times${query}`);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { code: string; errors: { field: string }[] };
    expect(problem.code).toBe("invalid_query");
    expect(problem.errors.map((e) => e.field)).toContain(field);
  });

  it("says how many times a parameter was given, each such parameter once, and publishes the times as the /api reads", async () => {
    const res = await d.api(`/api/v1/free-times?time_zone=UTC&from=2099-01-01&time_zone=UTC&from=x&time_zone=Europe/Paris`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown[] }).errors).toEqual([
      { field: "/time_zone", code: "invalid_value", message: "time_zone must be given once, not 3 times" },
      { field: "/from", code: "invalid_value", message: "from must be given once, not 2 times" },
    ]);
    const free = await d.api(`/api/v1/free-times?time_zone=UTC`);
    expect(free.headers.get("cache-control")).toBe("public, max-age=60");
    expect(free.headers.get("content-signal")).toBeTruthy();
  });
});

describe("a booking", () => {
  it("needs a token with svc:brief, as a brief does", async () => {
    const start = await freeStart();
    expect((await d.api("/api/v1/bookings", json(person(start)))).status).toBe(401);
    expect((await d.api("/api/v1/bookings", json(person(start), await d.token("svc:read")))).status).toBe(403);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toEqual([]);
  });

  it("books the time with Cal.com, answers with our id only, and is seen and cancelled by its own grant only", async () => {
    const start = await freeStart();
    // Two people behind one hosted client: two grants of the same client_id.
    const clientId = `client-${crypto.randomUUID()}`;
    const token = await d.token("svc:read svc:brief", clientId, consentGrantId());
    const res = await d.api("/api/v1/bookings", json(person(start), token));
    expect(res.status).toBe(201);
    const text = await res.text();
    const booking = JSON.parse(text) as { booking_id: string; status: string; start: string; time_zone: string };
    expect(booking).toMatchObject({ status: "booked", time_zone: "Europe/London" });
    expect(Date.parse(booking.start)).toBe(Date.parse(start));
    const made = d.cal.bookings().find((b) => Date.parse(b.start) === Date.parse(start))!;
    expect(made.attendee.timeZone).toBe("Europe/London");
    // Cal.com's identifiers never leave the server.
    expect(text).not.toContain(made.uid);
    expect(text).not.toContain(`"id":${made.id}`);

    const own = await d.api(`/api/v1/bookings/${booking.booking_id}`, get(token));
    expect(own.status).toBe(200);
    // Another person using the very same client is another grant: the same answer as for a booking that does not exist.
    const other = await d.token("svc:read svc:brief", clientId, consentGrantId());
    const missing = `bk_${"0".repeat(20)}`;
    for (const path of [`/api/v1/bookings/${booking.booking_id}`, `/api/v1/bookings/${missing}`]) {
      const seen = await d.api(path, get(other));
      expect(seen.status).toBe(404);
      expect(((await seen.json()) as { detail: string }).detail).toBe("This grant has no booking of that id.");
      const cancel = await d.api(`${path}/cancel`, json({}, other));
      expect(cancel.status).toBe(404);
      expect(((await cancel.json()) as { detail: string }).detail).toBe("This grant has no booking of that id.");
    }
    expect(d.cal.bookings().find((b) => b.uid === made.uid)!.status).toBe("accepted");

    const cancelled = await d.api(`/api/v1/bookings/${booking.booking_id}/cancel`, json({}, token));
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ booking_id: booking.booking_id, status: "cancelled" });
    expect(d.cal.bookings().find((b) => b.uid === made.uid)!.status).toBe("cancelled");
  });

  it("answers a time someone took first with 409 slot_taken and fresh free times without it", async () => {
    const start = await freeStart();
    expect((await d.api("/api/v1/bookings", json(person(start), await d.token("svc:brief")))).status).toBe(201);
    const res = await d.api("/api/v1/bookings", json(person(start), await d.token("svc:brief")));
    expect(res.status).toBe(409);
    const problem = (await res.json()) as { code: string; free_times: FreeTimes };
    expect(problem.code).toBe("slot_taken");
    expect(problem.free_times.times.length).toBeGreaterThan(0);
    expect(problem.free_times.times.map((t) => Date.parse(t.start))).not.toContain(Date.parse(start));
  });

  it("answers a start that is not a slot's start, or outside the hours, as slot_taken naming /start", async () => {
    const start = await freeStart();
    const token = await d.token("svc:brief");
    for (const wrong of [
      Date.parse(start) + 7 * 60_000,
      Date.parse(start) - (Date.parse(start) % 86_400_000) + 86_400_000 * 2 + 3 * 3_600_000,
    ]) {
      const res = await d.api("/api/v1/bookings", json(person(new Date(wrong).toISOString()), token));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: "slot_taken", errors: [{ field: "/start", code: "invalid_value" }] });
    }
  });

  it("books one of two agents racing for the same time, and refuses the other", async () => {
    const start = await freeStart();
    const answers = await Promise.all(
      [0, 1, 2, 3].map(async () => (await d.api("/api/v1/bookings", json(person(start), await d.token("svc:brief")))).status),
    );
    expect(answers.sort()).toEqual([201, 409, 409, 409]);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start) && b.status === "accepted")).toHaveLength(1);
  });

  it("answers one grant's concurrent retries without a key with their one booking, counted once, never a taken time", async () => {
    const start = await freeStart();
    const token = await d.token("svc:brief");
    const body = person(start);
    const answers = await Promise.all([0, 1, 2, 3].map(() => d.api("/api/v1/bookings", json(body, token))));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(answers.filter((r) => r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { booking_id: string }).booking_id)));
    expect(ids.size).toBe(1);
    const made = d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start));
    expect(made).toHaveLength(1);
    expect(made[0]!.metadata.frontdoor_booking).toBe([...ids][0]);
    // The grant's other two bookings of the day are left, and each says so.
    const left = [];
    for (let i = 0; i < 3; i++) {
      const res = await d.api("/api/v1/bookings", json(person(await freeStart()), token));
      left.push(`${res.status} ${/"bookings-per-grant";r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]}`);
    }
    expect(left).toEqual(["201 1", "201 0", "429 0"]);
  });

  it("refuses a start outside the bookable days as an invalid field, never as an outage", async () => {
    for (const start of ["9999-12-31T23:59:59Z", "2020-01-01T09:00:00Z", new Date(Date.now() - 3_600_000).toISOString()]) {
      const res = await d.api("/api/v1/bookings", json(person(start, { dry_run: true }), await d.token("svc:brief")));
      expect(res.status, start).toBe(422);
      expect(await res.json()).toMatchObject({ code: "invalid_booking", errors: [{ field: "/start" }] });
    }
  });

  it("books once per Idempotency-Key, and refuses the key with another booking", async () => {
    const start = await freeStart();
    const token = await d.token("svc:brief");
    const body = person(start);
    const key = { "idempotency-key": crypto.randomUUID() };
    const first = await d.api("/api/v1/bookings", json(body, token, key));
    const again = await d.api("/api/v1/bookings", json(body, token, key));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { booking_id: string }).booking_id).toBe(((await first.json()) as { booking_id: string }).booking_id);
    const other = await d.api("/api/v1/bookings", json({ ...body, full_name: "Someone Else" }, token, key));
    expect(other.status).toBe(422);
    expect(((await other.json()) as { code: string }).code).toBe("idempotency_key_reused");
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toHaveLength(1);
  });

  it("takes the lead of the grant's own brief, and no other grant's", async () => {
    const token = await d.token("svc:brief");
    const filed = await d.api("/api/v1/briefs", json(freshBrief(), token));
    const { lead_id } = (await filed.json()) as { lead_id: string };
    const strangers = await d.api("/api/v1/bookings", json(person(await freeStart(), { lead_id }), await d.token("svc:brief")));
    expect(strangers.status).toBe(422);
    expect(await strangers.json()).toMatchObject({ code: "invalid_booking", errors: [{ field: "/lead_id" }] });
    const own = await d.api("/api/v1/bookings", json(person(await freeStart(), { lead_id }), token));
    expect(own.status).toBe(201);
    const { booking_id } = (await own.json()) as { booking_id: string };
    expect(booking_id).toMatch(/^bk_/);

    // The studio's e-mail about the brief is followed, in its thread, by one saying the call was booked: once.
    await d.settle();
    await deliverDue(d.deliveryJob());
    await deliverDue(d.deliveryJob());
    const about = (tag: string) =>
      d.postmark.sent.filter((m) => m.body.Tag === tag && (m.body.Metadata as { lead_id: string }).lead_id === lead_id);
    const [brief] = about("lead-brief");
    const notices = about("lead-call");
    expect(notices).toHaveLength(1);
    const notice = notices[0]!.body as { Subject: string; TextBody: string; Metadata: Record<string, string> };
    expect(notice.Subject).toBe(`Re: ${brief!.body.Subject as string}`);
    expect(notice.Metadata.booking_id).toBe(booking_id);
    expect(notice.TextBody).toContain(`Intro call booked for lead ${lead_id}`);
    expect(d.postmark.sent.indexOf(notices[0]!)).toBeGreaterThan(d.postmark.sent.indexOf(brief!));
  });

  it("says in the studio's notice when the call was cancelled before the notice went", async () => {
    const token = await d.token("svc:read svc:brief");
    const { lead_id } = (await (await d.api("/api/v1/briefs", json(freshBrief(), token))).json()) as { lead_id: string };
    const booked = await d.api("/api/v1/bookings", json(person(await freeStart(), { lead_id }), token));
    const { booking_id } = (await booked.json()) as { booking_id: string };
    expect((await d.api(`/api/v1/bookings/${booking_id}/cancel`, json({}, token))).status).toBe(200);
    await d.settle();
    await deliverDue(d.deliveryJob());
    await deliverDue(d.deliveryJob());
    const notices = d.postmark.sent.filter((m) => (m.body.Metadata as { booking_id?: string }).booking_id === booking_id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.TextBody as string).toContain(`Intro call booked and cancelled for lead ${lead_id}`);
  });

  it("checks a dry run, books nothing, and refuses unknown fields field by field", async () => {
    const start = await freeStart();
    const dry = await d.api("/api/v1/bookings", json(person(start, { dry_run: true }), await d.token("svc:brief")));
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ dry_run: true, valid: true, free: true });
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toEqual([]);
    const bad = await d.api("/api/v1/bookings", json({ start: "tomorrow", extra: 1 }, await d.token("svc:brief")));
    expect(bad.status).toBe(422);
    const fields = ((await bad.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["/full_name", "/work_email", "/start", "/time_zone", "/extra"]));
  });

  it("says in next_steps where the invitation goes, and whether the studio sees a brief with the call", async () => {
    const token = await d.token("svc:brief");
    const studio = d.resources.site.name;
    const alone = person(await freeStart());
    const plain = (await (await d.api("/api/v1/bookings", json(alone, token))).json()) as { next_steps: string };
    expect(plain.next_steps).toBe(
      `Cal.com sends the invitation to ${alone.work_email}; ${studio} sees the booking. Cancel with the booking_id if plans change.`,
    );
    const { lead_id } = (await (await d.api("/api/v1/briefs", json(freshBrief(), token))).json()) as { lead_id: string };
    const withBrief = person(await freeStart(), { lead_id });
    const briefed = (await (await d.api("/api/v1/bookings", json(withBrief, token))).json()) as { next_steps: string };
    expect(briefed.next_steps).toBe(
      `Cal.com sends the invitation to ${withBrief.work_email}; ${studio} sees the booking with the brief. Cancel with the booking_id if plans change.`,
    );
  });

  it("refuses a body that gives a member twice, whichever value a parser would keep", async () => {
    const body = `{"full_name":"Ada Lovelace","work_email":"ada@engines.example","start":"${await freeStart()}","time_zone":"UTC","dry_run":true,"dry_run":false}`;
    const res = await d.api("/api/v1/bookings", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await d.token("svc:brief")}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_json", detail: expect.stringContaining('"dry_run" is given twice') });
  });

  it("lets a browser book: a preflight with the write's CORS policy, and a booking's Location and Idempotent-Replayed readable", async () => {
    const preflight = await d.api("/api/v1/bookings", { method: "OPTIONS", headers: { origin: "https://agent.example" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const token = await d.token("svc:brief");
    const res = await d.api(
      "/api/v1/bookings",
      json(person(await freeStart(), { dry_run: true }), token, { origin: "https://agent.example" }),
    );
    expect(res.status).toBe(200);
    const exposed = res.headers.get("access-control-expose-headers") ?? "";
    expect(exposed).toContain("Location");
    expect(exposed).toContain("Idempotent-Replayed");
  });

  it("answers HEAD on free times and a booking as their GET, without a body", async () => {
    const head = await d.api("/api/v1/free-times?time_zone=UTC", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await head.text()).toBe("");
    const missing = await d.api(`/api/v1/bookings/bk_${"0".repeat(20)}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${await d.token("svc:read")}` },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("names an unknown field as no booking field", async () => {
    const bad = await d.api("/api/v1/bookings", json(person(await freeStart(), { colour: "red" }), await d.token("svc:brief")));
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      code: "invalid_booking",
      errors: [{ field: "/colour", code: "unknown_field", message: "colour is not a booking field" }],
    });
  });

  it.each(["503", "500", "429", "timeout"] as const)(
    "answers Cal.com's %s with 503 calendar_unavailable and Retry-After, and books nothing",
    async (fault) => {
      const on = fault === "timeout" ? late : d;
      const start = await freeStart(on);
      on.cal.fail(fault);
      const res = await on.api("/api/v1/bookings", json(person(start), await on.token("svc:brief")));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(((await res.json()) as { code: string }).code).toBe("calendar_unavailable");
      expect(on.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toEqual([]);
    },
  );

  it("finds a booking whose answer a proxy replaced with a page of its own, and books it once", async () => {
    const start = await freeStart();
    d.cal.fail("malformed");
    const res = await d.api("/api/v1/bookings", json(person(start), await d.token("svc:brief")));
    expect(res.status).toBe(201);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toHaveLength(1);
  });

  it.each([
    ["503", 33],
    ["429", 41],
    ["timeout", 49],
    ["malformed", 57],
  ] as const)("answers free times Cal.com meets with %s as calendar_unavailable", async (fault, ahead) => {
    const on = fault === "timeout" ? late : d;
    await forgetFreeTimes(on);
    const day = new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    on.cal.fail(fault);
    const res = await on.api(`/api/v1/free-times?from=${day}&to=${day}&time_zone=Asia/Tokyo`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ code: "calendar_unavailable" });
    // Cal.com's own numbers and words never reach the client.
    expect(res.headers.get("x-ratelimit-limit-default")).toBeNull();
  });

  it("answers 201 with the booking's Location, which the grant can read", async () => {
    const token = await d.token("svc:read svc:brief");
    const res = await d.api("/api/v1/bookings", json(person(await freeStart()), token));
    expect(res.status).toBe(201);
    const { booking_id } = (await res.json()) as { booking_id: string };
    expect(res.headers.get("location")).toBe(`${d.baseUrl}/api/v1/bookings/${booking_id}`);
    expect((await d.api(new URL(res.headers.get("location")!).pathname, get(token))).status).toBe(200);
  });

  it("refuses a time that is not free before counting it: a grant's taken times never use up its bookings", async () => {
    const start = await freeStart();
    expect((await d.api("/api/v1/bookings", json(person(start), await d.token("svc:brief")))).status).toBe(201);
    const token = await d.token("svc:brief");
    for (let i = 0; i < 5; i++) expect((await d.api("/api/v1/bookings", json(person(start), token))).status).toBe(409);
    expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(201);
  });

  it.each([
    ["a string", "false"],
    ["a number", 0],
  ])("refuses a dry_run that is %s, never reading it as a dry run or a booking", async (_, dryRun) => {
    const start = await freeStart();
    const res = await d.api("/api/v1/bookings", json(person(start, { dry_run: dryRun }), await d.token("svc:brief")));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(["/dry_run"]);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toEqual([]);
  });

  it("never counts a time Cal.com refuses (booked there directly: the kept free times were stale)", async () => {
    const start = await freeStart();
    // Someone books the time on Cal.com's own page: the free times kept here still list it.
    const direct = await fetch(`${d.cal.url}/v2/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "cal-api-version": "2026-02-25" },
      body: JSON.stringify({
        eventTypeId: 1,
        start: new Date(start).toISOString(),
        attendee: { name: "Someone", email: "someone@else.example", timeZone: "UTC" },
      }),
    });
    expect(direct.status).toBe(201);
    const token = await d.token("svc:brief");
    for (let i = 0; i < 4; i++) expect((await d.api("/api/v1/bookings", json(person(start), token))).status).toBe(409);
    for (let i = 0; i < 3; i++) expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(201);
  });

  it("never counts a booking Cal.com did not answer, and gives back the Idempotency-Key of one that booked nothing", async () => {
    const token = await d.token("svc:brief");
    for (let i = 0; i < 3; i++) {
      const start = await freeStart();
      d.cal.fail("503");
      expect((await d.api("/api/v1/bookings", json(person(start), token))).status).toBe(503);
    }
    const taken = await freeStart();
    expect((await d.api("/api/v1/bookings", json(person(taken), await d.token("svc:brief")))).status).toBe(201);
    const key = { "idempotency-key": crypto.randomUUID() };
    expect((await d.api("/api/v1/bookings", json(person(taken), token, key))).status).toBe(409);
    // The key booked nothing: it books another time, and the grant still has its three.
    expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token, key))).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(201);
    expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(429);
  });

  it("gives back a key whose first use met an outage once its retry finds the time taken", async () => {
    const token = await d.token("svc:brief");
    const key = { "idempotency-key": crypto.randomUUID() };
    const start = await freeStart();
    const body = person(start);
    d.cal.fail("503");
    expect((await d.api("/api/v1/bookings", json(body, token, key))).status).toBe(503);
    expect((await d.api("/api/v1/bookings", json(person(start), await d.token("svc:brief")))).status).toBe(201);
    expect((await d.api("/api/v1/bookings", json(body, token, key))).status).toBe(409);
    expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token, key))).status).toBe(201);
  });

  it("takes the retries of a key whose first request failed one at a time: one booking, every answer the same", async () => {
    const token = await d.token("svc:brief");
    const body = person(await freeStart());
    const key = { "idempotency-key": crypto.randomUUID() };
    // The first request's call to Cal.com is held; its retries come meanwhile and find the key claimed (each reads the
    // claim once); then Cal.com answers the held call 503.
    d.cal.fail("timeout");
    const first = d.api("/api/v1/bookings", json(body, token, key));
    await expect.poll(() => d.cal.held()).toBe(1);
    const claimReads = await readsOfKey(key["idempotency-key"]);
    const retrying = Promise.all([0, 1, 2, 3].map(() => d.api("/api/v1/bookings", json(body, token, key))));
    await expect.poll(async () => (await readsOfKey(key["idempotency-key"])) - claimReads).toBe(4);
    d.cal.release();
    expect((await first).status).toBe(503);
    const retries = await retrying;
    expect(retries.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const ids = new Set(await Promise.all(retries.map(async (r) => ((await r.json()) as { booking_id: string }).booking_id)));
    expect(ids.size).toBe(1);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(body.start))).toHaveLength(1);
    for (let i = 0; i < 2; i++) expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(201);
  });

  it("reports the booking quotas a new booking counted against", async () => {
    const res = await d.api("/api/v1/bookings", json(person(await freeStart()), await d.token("svc:brief")));
    expect(res.status).toBe(201);
    expect(res.headers.get("ratelimit-policy")).toContain('"bookings-per-grant";q=3;w=86400');
    expect(res.headers.get("ratelimit")).toMatch(/"bookings-per-grant";r=2;t=\d+/);
    expect(res.headers.get("ratelimit")).toMatch(/"public-api";r=\d+/);
  });

  it("answers the same booking sent at once under a key each with its one booking, counted once", async () => {
    const token = await d.token("svc:brief");
    const body = person(await freeStart());
    const keys = [0, 1, 2, 3, 4].map(() => crypto.randomUUID());
    const answers = await Promise.all(keys.map((key) => d.api("/api/v1/bookings", json(body, token, { "idempotency-key": key }))));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { booking_id: string }).booking_id)));
    expect(ids.size).toBe(1);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(body.start))).toHaveLength(1);
    const next = await d.api("/api/v1/bookings", json(person(await freeStart()), token));
    expect([next.status, /"bookings-per-grant";r=(\d+)/.exec(next.headers.get("ratelimit") ?? "")?.[1]]).toEqual([201, "1"]);
    // Every key stands for the booking it was answered with: again, the booking; with another booking, refused.
    for (const [i, key] of keys.entries()) {
      const again = await d.api("/api/v1/bookings", json(body, token, { "idempotency-key": key }));
      expect([again.status, ((await again.json()) as { booking_id: string }).booking_id], `key ${i}`).toEqual([201, [...ids][0]]);
      const other = await d.api("/api/v1/bookings", json({ ...body, start: await freeStart() }, token, { "idempotency-key": key }));
      expect([other.status, ((await other.json()) as { code: string }).code], `key ${i}`).toEqual([422, "idempotency_key_reused"]);
    }
  });

  it("answers concurrent retries of one Idempotency-Key with its one booking, counted once", async () => {
    const token = await d.token("svc:brief");
    const body = person(await freeStart());
    const key = { "idempotency-key": crypto.randomUUID() };
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => d.api("/api/v1/bookings", json(body, token, key))));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { booking_id: string }).booking_id)));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    expect(d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(body.start))).toHaveLength(1);
    for (let i = 0; i < 2; i++) expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(201);
    expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(429);
  });

  it("finds a booking whose answer came too late, and never books it twice", async () => {
    const start = await freeStart(late);
    late.cal.fail("accept-then-timeout");
    const token = await late.token("svc:brief");
    const res = await late.api("/api/v1/bookings", json(person(start), token));
    expect(res.status).toBe(201);
    expect(late.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start))).toHaveLength(1);
  });

  it("counts a grant's bookings: the fourth in a day is refused with Retry-After", async () => {
    const token = await d.token("svc:brief");
    for (let i = 0; i < 3; i++) expect((await d.api("/api/v1/bookings", json(person(await freeStart()), token))).status).toBe(201);
    const fourth = await d.api("/api/v1/bookings", json(person(await freeStart()), token));
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await fourth.json()) as { code: string }).code).toBe("booking_quota_exceeded");
  });
});
