import { beforeAll, describe, expect, inject, it } from "vitest";
import { clientCredentialsToken } from "../support/oauth-client.ts";

/**
 * The intro call through npm start, each test for what only the runtime shows:
 * - the /api gateway, the bookings function and the local Cal.com stand-in npm start runs when Cal.com is not configured:
 *   free times from the studio's hours, one booking, read back by its grant;
 * - the build offering booking to agents on the contact resource, since npm start's stand-in stands for Cal.com.
 * Every rule (taken times, races, Idempotency-Key, quotas, bodies refused, CORS, HEAD) is in tests/doors/booking.test.ts.
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
    expect(booked.headers.get("location")).toBe(`${base}/api/v1/bookings/${booking.booking_id}`);
    const again = await fetch(booked.headers.get("location")!, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ booking_id: booking.booking_id, start });
  });

  it("says on the contact resource that agents can book, and how", async () => {
    const contact = (await (await fetch(`${base}/api/v1/contact`)).json()) as { booking: { url: string; agents?: object } };
    expect(contact.booking.url).toMatch(/^https:/);
    expect(contact.booking.agents).toMatchObject({
      free_times_url: `${base}/api/v1/free-times`,
      mcp_tools: ["list_free_times", "book_intro_call", "cancel_intro_call"],
    });
  });
});
