import type { CallToolResult } from "@modelcontextprotocol/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { BookingDeps } from "../../src/booking/book.ts";
import { bookingConfirmation } from "../../src/mcp/booking-confirmation.ts";
import { bookingTools } from "../../src/mcp/booking-tools.ts";
import type { Caller, Rounds, Tool, ToolCall } from "../../src/mcp/tool.ts";
import type { BookingServices } from "../../src/operations/booking.ts";
import { prebuiltResources, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";

/**
 * The booking tools on their own (src/mcp/booking-tools.ts): what tools/list publishes for them, and book_intro_call and
 * cancel_intro_call where no HTTP layer checked the token first, or where Cal.com is not configured at run time although
 * the build offers booking; and the confirmation's check when its dry run fails. tests/doors/mcp-booking.test.ts drives
 * them through /mcp against the Cal.com stand-in.
 */
let prebuilt: PrebuiltResources;
beforeAll(async () => {
  prebuilt = prebuiltResources(buildSite(await loadContentDir("content"), "https://studio.example", { agentBooking: true }));
});

const caller: Caller = { clientId: "client-1", grantId: "grant-1", address: "10.0.0.1", scopes: ["svc:brief"] };
const args = { full_name: "Ada Lovelace", work_email: "ada@engines.example", start: "2027-03-02T09:00:00Z", time_zone: "UTC" };
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** The tools over booking services whose Cal.com is `booking()`'s; `asked` counts how often they were needed. */
function tools(booking: BookingServices["booking"] = () => undefined) {
  const used = { asked: 0 };
  const services: BookingServices = { studio: prebuilt.site.name, booking: () => (used.asked++, booking()) };
  const [, book, cancel] = bookingTools(prebuilt, services) as [Tool, Tool, Tool];
  return { book, cancel, used };
}

/** A 2026-07-28 call from a client that shows forms, before any form was asked. */
const withForms = (who: Caller | undefined): ToolCall => {
  const rounds: Rounds = {
    inputResponses: undefined,
    state: undefined,
    mint: async () => "state-1",
    decide: async (_form, decision) => decision,
  };
  return { caller: who, era: "modern", clientCapabilities: { elicitation: {} }, rounds };
};

describe("the booking tools' listing", () => {
  it("tells a model what each booking tool does, needs and answers, and marks the writes", () => {
    const [free, book, cancel] = bookingTools(prebuilt, { studio: prebuilt.site.name, booking: () => undefined });
    const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean) => ({
      readOnlyHint,
      destructiveHint,
      idempotentHint,
      openWorldHint: true,
    });
    expect(free).toMatchObject({
      name: "list_free_times",
      title: "Free times for the intro call",
      annotations: { title: "Free times for the intro call", ...hints(true, false, true) },
    });
    expect(book).toMatchObject({
      name: "book_intro_call",
      title: "Book the intro call",
      annotations: { title: "Book the intro call", ...hints(false, false, false) },
    });
    expect(cancel).toMatchObject({
      name: "cancel_intro_call",
      title: "Cancel the intro call",
      annotations: { title: "Cancel the intro call", ...hints(false, true, true) },
    });
    const call = `${prebuilt.site.name}'s ${prebuilt.contact.booking.duration_minutes}-minute intro call`;
    expect(free!.description).toContain(`Lists when ${call} can be booked`);
    expect(free!.description).toContain("(7 days from today by default, at most 21 days, up to 60 days ahead)");
    expect(free!.description).toMatch(/needs no token\..* with book_intro_call\.$/);
    // Each sentence of book_intro_call's description says one thing the model must know, and they read as sentences.
    for (const said of [
      `Books ${call} for the person`,
      "chose the time from list_free_times",
      "lead_id of the brief",
      "(elicitation, MCP 2026-07-28)",
      "Set dry_run to true",
      "the scope svc:brief: without one the server answers HTTP 401",
      "fresh free times",
      "Not idempotent unless you pass idempotency_key.",
    ])
      expect(book!.description).toContain(said);
    expect(book!.description).not.toMatch(/\.[A-Z]|\s\s/);
    expect(cancel!.description).toMatch(
      /^Cancels an intro call this grant booked with book_intro_call, by its booking_id;.* the scope svc:brief, of the grant that booked it\.$/,
    );
    // Inputs as a client may send them (the time zone a string before it is read), outputs closed as the tools answer them.
    expect(free!.inputSchema.properties).toMatchObject({ time_zone: { type: "string" } });
    expect(book!.inputSchema).toMatchObject({
      required: ["full_name", "work_email", "start", "time_zone"],
      properties: { time_zone: { type: "string" } },
    });
    for (const tool of [free, book, cancel]) expect(tool!.outputSchema.additionalProperties, tool!.name).toBe(false);
  });
});

describe("the booking tools without the scope", () => {
  it.each([
    ["book", "Booking the intro call"],
    ["cancel", "Cancelling the intro call"],
  ] as const)("%s: says what needs svc:brief, and touches no booking", async (name, what) => {
    const t = tools();
    for (const who of [undefined, { ...caller, scopes: ["svc:read"] }]) {
      const result = await t[name].run(name === "book" ? args : { booking_id: "bk_0123456789abcdefghjk" }, withForms(who));
      expect(result).toMatchObject({ isError: true });
      expect(textOf(result)).toBe(`${what} needs an access token with the scope svc:brief. Nothing was booked or cancelled.`);
    }
    expect(t.used.asked).toBe(0);
  });
});

describe("book_intro_call where Cal.com is not configured at run time", () => {
  it("answers booking_not_offered as a tool error, whether or not the client shows forms", async () => {
    const { book } = tools();
    const plain = await book.run(args, { caller, era: "legacy", clientCapabilities: undefined });
    for (const result of [plain, await book.run(args, withForms(caller))]) {
      expect(result).toMatchObject({ isError: true });
      const [words, data] = textOf(result).split("\n\n");
      expect(words).toMatch(/^The call was NOT booked: /);
      expect(JSON.parse(data!)).toMatchObject({ code: "booking_not_offered" });
    }
  });

  it("lets an unexpected failure of the form's set-up through, for the server to answer", async () => {
    const { book } = tools(() => {
      throw new Error("the booking services broke");
    });
    await expect(book.run(args, withForms(caller))).rejects.toThrow("the booking services broke");
  });
});

describe("book_intro_call's confirmation", () => {
  it("lets a failure of the dry run that is no refusal through, for the server to answer", async () => {
    const body = { ...args };
    const dryRun = async () => {
      throw new Error("the dry run broke");
    };
    // The check of an answer reads neither Cal.com's settings nor what was settled.
    const confirmation = bookingConfirmation(
      body,
      {} as BookingDeps,
      { studio: "Kestrel Studio", booking: () => undefined },
      dryRun,
      async () => undefined,
    );
    await expect(confirmation.check({ ...body, full_name: "Ada King" })).rejects.toThrow("the dry run broke");
  });
});
