import type { CallToolResult } from "@modelcontextprotocol/client";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import type { StandInBooking } from "../../scripts/local-calcom/standin.ts";
import { deliverLeadsFunctionPath } from "../../src/paths.ts";
import { freshBrief } from "../support/briefs.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { machineProvider } from "../support/oauth-client.ts";
import { standInMessages } from "../support/postmark-standin.ts";

/**
 * After the brief, the intro call, end to end through npm start over MCP with the v2 SDK's client: a brief, the free
 * times, a booking with the brief's lead (Cal.com's stand-in, which npm start runs, books it and keeps it in
 * .data/bookings.json), the studio's e-mail that the call was booked, and the cancellation. Every rule is held
 * in-process in tests/doors/mcp-booking.test.ts and tests/doors/booking.test.ts.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const endpoint = `${base}/mcp`;

const standInBookings = async () =>
  (JSON.parse(await readFile(join(inject("dataDir"), "bookings.json"), "utf8")) as { bookings: StandInBooking[] }).bookings;
const sent = async () => (await standInMessages(postmark)).sent;

describe.each(eras)("a v2 client $mode, given only /mcp", (era) => {
  it("files a brief, lists free times, books the call with the brief's lead, and cancels it", async () => {
    const client = await connectMcp(endpoint, era, { authProvider: await machineProvider(base, "booking") });
    const filed = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
    const { lead_id } = filed.structuredContent as { lead_id: string };

    // Days of this file's own, so no other test's booking (or its cached free times) is in the way.
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const query = { from: day(30), to: day(34), time_zone: "Europe/Berlin" };
    const free = (await client.callTool({ name: "list_free_times", arguments: query })) as CallToolResult;
    expect(free.isError).toBeFalsy();
    const { times } = free.structuredContent as { times: { start: string }[] };
    // A different time for each era.
    const start = times.at(era.era === "modern" ? -1 : -2)!.start;

    const args = { full_name: "Grace Hopper", work_email: "grace@navy.example", start, time_zone: "Europe/Berlin", lead_id };
    const booked = (await client.callTool({ name: "book_intro_call", arguments: args })) as CallToolResult;
    expect(booked.isError, JSON.stringify(booked.content)).toBeFalsy();
    const booking = booked.structuredContent as { booking_id: string; start: string; lead_id: string };
    expect(booking).toMatchObject({ start, lead_id });
    const made = (await standInBookings()).filter((b) => Date.parse(b.start) === Date.parse(start));
    expect(made).toMatchObject([{ status: "accepted", attendee: { name: "Grace Hopper", timeZone: "Europe/Berlin" } }]);

    // The delivery job (every minute in npm start; run here at once) sends the lead, then the notice that the call was booked.
    for (let run = 0; run < 2; run++) await (await fetch(`${base}${deliverLeadsFunctionPath}`, { method: "POST", body: "{}" })).text();
    const notices = (await sent()).filter(
      (m) => m.body.Tag === "lead-call" && (m.body.Metadata as { lead_id: string }).lead_id === lead_id,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.TextBody as string).toContain(booking.booking_id);

    const cancelled = (await client.callTool({
      name: "cancel_intro_call",
      arguments: { booking_id: booking.booking_id },
    })) as CallToolResult;
    expect(cancelled.structuredContent).toMatchObject({ booking_id: booking.booking_id, status: "cancelled" });
    expect((await standInBookings()).filter((b) => Date.parse(b.start) === Date.parse(start))).toMatchObject([{ status: "cancelled" }]);
    await client.close();
  });
});
