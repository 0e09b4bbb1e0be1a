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
});
