import type { CallToolResult } from "@modelcontextprotocol/client";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import type { StandInBooking } from "../../scripts/local-calcom/standin.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";

/**
 * The intro call over MCP through npm start, with the v2 SDK's client: the free times and a booking that Cal.com's
 * stand-in, the process npm start runs, books and keeps in .data/bookings.json, then the cancellation there. Every rule,
 * both eras, the lead of the grant's own brief and the studio's e-mail that the call was booked are held in-process in
 * tests/doors/mcp-booking.test.ts and tests/doors/booking.test.ts.
 */
const base = inject("baseUrl");
const endpoint = `${base}/mcp`;

const standInBookings = async () =>
  (JSON.parse(await readFile(join(inject("dataDir"), "bookings.json"), "utf8")) as { bookings: StandInBooking[] }).bookings;

describe("a v2 client pinned to 2026-07-28, given only /mcp and a token with svc:brief", () => {
  it("lists free times, books the call at Cal.com's stand-in, and cancels it there", async () => {
    const { token } = await clientCredentialsToken(base, "svc:brief", endpoint);
    const client = await connectMcp(
      endpoint,
      eras.find((e) => e.era === "modern")!,
      {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      },
    );
    // Days of this file's own, so no other test's booking (or its cached free times) is in the way.
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const query = { from: day(30), to: day(34), time_zone: "Europe/Berlin" };
    const free = (await client.callTool({ name: "list_free_times", arguments: query })) as CallToolResult;
    expect(free.isError).toBeFalsy();
    const start = (free.structuredContent as { times: { start: string }[] }).times.at(-1)!.start;

    const args = { full_name: "Grace Hopper", work_email: "grace@navy.example", start, time_zone: "Europe/Berlin" };
    const booked = (await client.callTool({ name: "book_intro_call", arguments: args })) as CallToolResult;
    expect(booked.isError, JSON.stringify(booked.content)).toBeFalsy();
    const booking = booked.structuredContent as { booking_id: string; start: string };
    expect(booking.start).toBe(start);
    const made = (await standInBookings()).filter((b) => Date.parse(b.start) === Date.parse(start));
    expect(made).toMatchObject([{ status: "accepted", attendee: { name: "Grace Hopper", timeZone: "Europe/Berlin" } }]);

    const cancelled = (await client.callTool({
      name: "cancel_intro_call",
      arguments: { booking_id: booking.booking_id },
    })) as CallToolResult;
    expect(cancelled.structuredContent).toMatchObject({ booking_id: booking.booking_id, status: "cancelled" });
    expect((await standInBookings()).filter((b) => Date.parse(b.start) === Date.parse(start))).toMatchObject([{ status: "cancelled" }]);
    await client.close();
  });
});
