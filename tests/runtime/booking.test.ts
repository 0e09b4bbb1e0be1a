import { beforeAll, describe, expect, inject, it } from "vitest";
import { clientCredentialsToken } from "../support/oauth-client.ts";

/**
 * The intro call through npm start: the /api gateway, the bookings function and the local Cal.com stand-in that npm
 * start runs when Cal.com is not configured (tests/doors/booking.test.ts holds every rule in-process).
 */
const base = inject("baseUrl");
let token: string;
beforeAll(async () => {
  token = (await clientCredentialsToken(base, "svc:brief")).token;
});

describe("the intro call", () => {
  it("lists free times from the studio's hours, books one with svc:brief, and shows it to its grant", async () => {
    const free = await fetch(`${base}/api/v1/free-times?time_zone=Europe/Berlin`);
    expect(free.status).toBe(200);
    expect(free.headers.get("ratelimit-policy")).toMatch(/"public-api"/);
    const { times } = (await free.json()) as { times: { start: string }[] };
    expect(times.length).toBeGreaterThan(10);
    const start = times.at(-1)!.start;

    const booked = await fetch(`${base}/api/v1/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ full_name: "Grace Hopper", work_email: "grace@navy.example", start, time_zone: "Europe/Berlin" }),
    });
    expect(booked.status).toBe(201);
    const booking = (await booked.json()) as { booking_id: string; start: string };
    expect(booking.start).toBe(start);
    const again = await fetch(`${base}/api/v1/bookings/${booking.booking_id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);

    const after = (await (await fetch(`${base}/api/v1/free-times?time_zone=Europe/Berlin`)).json()) as { times: { start: string }[] };
    // Free times are kept a minute: the booked time may still be listed, and booking it again is refused.
    const taken = await fetch(`${base}/api/v1/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${(await clientCredentialsToken(base, "svc:brief")).token}` },
      body: JSON.stringify({ full_name: "Ada Lovelace", work_email: "ada@engines.example", start, time_zone: "UTC" }),
    });
    expect(taken.status).toBe(409);
    expect(
      ((await taken.json()) as { free_times: { times: { start: string }[] } }).free_times.times.map((t) => Date.parse(t.start)),
    ).not.toContain(Date.parse(start));
    expect(after.times.length).toBeGreaterThan(0);
  });

  it("answers a browser's preflight for a booking with the write's CORS policy", async () => {
    const res = await fetch(`${base}/api/v1/bookings`, { method: "OPTIONS", headers: { origin: "https://agent.example" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("reads a time zone in any case as its canonical name, and refuses a parameter given twice", async () => {
    const berlin = await fetch(`${base}/api/v1/free-times?time_zone=EUROPE/BERLIN`);
    expect(((await berlin.json()) as { time_zone: string }).time_zone).toBe("Europe/Berlin");
    const utc = await fetch(`${base}/api/v1/free-times?time_zone=utc`);
    expect(utc.status).toBe(200);
    expect(((await utc.json()) as { time_zone: string }).time_zone).toBe("UTC");
    const twice = await fetch(`${base}/api/v1/free-times?time_zone=UTC&time_zone=Europe/Berlin`);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ code: "invalid_query", errors: [{ field: "/time_zone" }] });
  });

  it("answers 201 with Location, and never counts a taken time against the grant's bookings", async () => {
    // Days of this test's own, so no other test's booking (or its cached free times) is in the way.
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const query = `from=${day(20)}&to=${day(24)}&time_zone=UTC`;
    const { times } = (await (await fetch(`${base}/api/v1/free-times?${query}`)).json()) as { times: { start: string }[] };
    const post = (start: string, bearer: string) =>
      fetch(`${base}/api/v1/bookings`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ full_name: "Ada Lovelace", work_email: "ada@engines.example", start, time_zone: "UTC" }),
      });
    const first = await post(times.at(-3)!.start, token);
    expect(first.status).toBe(201);
    const { booking_id } = (await first.json()) as { booking_id: string };
    expect(first.headers.get("location")).toBe(`${base}/api/v1/bookings/${booking_id}`);

    const other = (await clientCredentialsToken(base, "svc:brief")).token;
    for (let i = 0; i < 4; i++) expect((await post(times.at(-3)!.start, other)).status).toBe(409);
    expect((await post(times.at(-4)!.start, other)).status).toBe(201);
  });

  it("says on the contact resource that agents can book, and how", async () => {
    const contact = (await (await fetch(`${base}/api/v1/contact`)).json()) as { booking: { url: string; agents?: object } };
    expect(contact.booking.url).toMatch(/^https:/);
    expect(contact.booking.agents).toMatchObject({
      free_times_url: `${base}/api/v1/free-times`,
      mcp_tools: ["list_free_times", "book_intro_call", "cancel_intro_call"],
    });
  });

  it("refuses a body that gives a member twice, whichever value a parser would keep", async () => {
    const { times } = (await (await fetch(`${base}/api/v1/free-times?time_zone=UTC`)).json()) as { times: { start: string }[] };
    const body = `{"full_name":"Ada Lovelace","work_email":"ada@engines.example","start":"${times[0]!.start}","time_zone":"UTC","dry_run":true,"dry_run":false}`;
    const res = await fetch(`${base}/api/v1/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_json", detail: expect.stringContaining('"dry_run" is given twice') });
  });

  it("answers HEAD on free times and a booking as their GET, without a body", async () => {
    const head = await fetch(`${base}/api/v1/free-times?time_zone=UTC`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await head.text()).toBe("");
    const missing = await fetch(`${base}/api/v1/bookings/bk_${"0".repeat(20)}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("lets a browser read a booking's Location and Idempotent-Replayed", async () => {
    const { times } = (await (await fetch(`${base}/api/v1/free-times?time_zone=UTC`)).json()) as { times: { start: string }[] };
    const res = await fetch(`${base}/api/v1/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, origin: "https://agent.example" },
      body: JSON.stringify({
        full_name: "Ada Lovelace",
        work_email: "ada@engines.example",
        start: times[1]!.start,
        time_zone: "UTC",
        dry_run: true,
      }),
    });
    expect(res.status).toBe(200);
    const exposed = res.headers.get("access-control-expose-headers") ?? "";
    expect(exposed).toContain("Location");
    expect(exposed).toContain("Idempotent-Replayed");
  });
});

describe("the same booking sent at once", () => {
  const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
  const post = (body: object, bearer: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v1/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}`, ...headers },
      body: JSON.stringify(body),
    });
  const person = (start: string) => ({
    full_name: "Ada Lovelace",
    work_email: `ada.${crypto.randomUUID().slice(0, 8)}@engines.example`,
    start,
    time_zone: "UTC",
  });
  const remaining = (res: Response) => /"bookings-per-grant";r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1];

  const key = crypto.randomUUID();
  // Days of each case's own, so no other test's booking is in the way.
  it.each([
    ["without a key", 40, () => ({})],
    ["with one key", 44, () => ({ "idempotency-key": key })],
    ["with a key each", 48, () => ({ "idempotency-key": crypto.randomUUID() })],
  ])("%s, four times, is answered with its one booking each time and counts once", async (_how, ahead, headers) => {
    const query = `from=${day(ahead)}&to=${day(ahead + 2)}&time_zone=UTC`;
    const { times } = (await (await fetch(`${base}/api/v1/free-times?${query}`)).json()) as { times: { start: string }[] };
    const fresh = (await clientCredentialsToken(base, "svc:brief")).token;
    const once = person(times.at(-1)!.start);
    const answers = await Promise.all([1, 2, 3, 4].map(() => post(once, fresh, headers())));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const ids = await Promise.all(answers.map(async (a) => ((await a.json()) as { booking_id: string }).booking_id));
    expect(new Set(ids).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(3);

    // Counted once: the grant has two more, and each reports what is left.
    const second = await post(person(times.at(-2)!.start), fresh);
    expect([second.status, remaining(second)]).toEqual([201, "1"]);
    const third = await post(person(times.at(-3)!.start), fresh);
    expect([third.status, remaining(third)]).toEqual([201, "0"]);
  });
});

describe("keys that raced for one booking", () => {
  it("each stand for the booking they were answered with: again, that booking; with another time, idempotency_key_reused", async () => {
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const { times } = (await (await fetch(`${base}/api/v1/free-times?from=${day(52)}&to=${day(54)}&time_zone=UTC`)).json()) as {
      times: { start: string }[];
    };
    const fresh = (await clientCredentialsToken(base, "svc:brief")).token;
    const body = {
      full_name: "Ada Lovelace",
      work_email: `ada.${crypto.randomUUID().slice(0, 8)}@engines.example`,
      start: times.at(-1)!.start,
      time_zone: "UTC",
    };
    const post = (b: object, key: string) =>
      fetch(`${base}/api/v1/bookings`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${fresh}`, "idempotency-key": key },
        body: JSON.stringify(b),
      });
    const keys = [1, 2, 3, 4].map(() => crypto.randomUUID());
    const raced = await Promise.all(keys.map((key) => post(body, key)));
    const ids = new Set(await Promise.all(raced.map(async (r) => ((await r.json()) as { booking_id: string }).booking_id)));
    expect(ids.size).toBe(1);
    for (const key of keys) {
      const other = await post({ ...body, start: times.at(-2)!.start }, key);
      expect([other.status, ((await other.json()) as { code: string }).code]).toEqual([422, "idempotency_key_reused"]);
    }
  });
});
