import type { CallToolResult, ElicitResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDue } from "../../src/briefs/deliver.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { freshBrief } from "../support/briefs.ts";
import { mcpCall } from "../support/calls.ts";
import { fileDeployment, startDeployment } from "../support/deployment.ts";
import { connectMcp, connectShowingForms, eras, text } from "../support/mcp-client.ts";
import { person, type FreeTimes, type BookingView as Booking } from "../support/booking.ts";

/**
 * The intro call over MCP, in-process, in both protocol eras with the v2 SDK's client, against the Cal.com stand-in:
 * free times (the same JSON as REST), booking with svc:brief (dry run, the lead of the grant's own brief and the studio's
 * e-mail that its call was booked, fields named, a taken time with fresh free times, Cal.com down), cancelling by the
 * booking grant only, and (2026-07-28, a client that shows forms) the person confirming name, e-mail and time, and each
 * later answer to a settled form. tests/runtime/mcp-booking.test.ts books one call through npm start's Cal.com stand-in.
 */
const { d } = fileDeployment("local");

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

/** A client of the era whose requests carry a token of `grant` (a person using the one client, when given). */
async function connected(era: (typeof eras)[number], { clientId = `client-${crypto.randomUUID()}`, grant = consentGrantId() } = {}) {
  const token = await d.token("svc:read svc:brief", clientId, grant);
  const client = await connectMcp(`${d.baseUrl}/mcp`, era, {
    fetch: d.fetchFrom(),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  return { client, clientId };
}

let taken = 0;
/** A free start two or more weeks ahead, each test its own. */
async function freeStart(): Promise<string> {
  const from = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const res = await d.api(`/api/v1/free-times?from=${from}&time_zone=Europe/London`);
  return ((await res.json()) as FreeTimes).times[taken++]!.start;
}
const accepted = (start: string) => d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start) && b.status === "accepted");

describe.each(eras)("the v2 client $mode", (era) => {
  it("lists free times, the same JSON as REST, without a token", async () => {
    const client = await connectMcp(`${d.baseUrl}/mcp`, era, { fetch: d.fetchFrom() });
    const from = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const args = { from, to: from, time_zone: "Asia/Tokyo" };
    const result = (await client.callTool(call("list_free_times", args))) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await (await d.api(`/api/v1/free-times?${new URLSearchParams(args)}`)).json());
    const free = result.structuredContent as unknown as FreeTimes;
    expect(text(result).split("\n")[0]).toBe(`${free.times.length} free times from ${free.from} to ${free.to} (Asia/Tokyo):`);
    const bad = (await client.callTool(call("list_free_times", { time_zone: "Mars/Olympus", when: "soon" }))) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^No free times were listed: 2 fields are missing or invalid: /);
    expect(text(bad)).toContain("/time_zone");
    expect(text(bad)).toContain("/when");
    await client.close();
  });

  it("books with the lead of the grant's own brief, dry run first, and cancels; another grant of the same client cannot", async () => {
    const { client, clientId } = await connected(era);
    const filed = (await client.callTool(call("submit_project_brief", freshBrief()))) as CallToolResult;
    const { lead_id } = filed.structuredContent as { lead_id: string };
    const start = await freeStart();

    const dry = (await client.callTool(call("book_intro_call", person(start, { lead_id, dry_run: true })))) as CallToolResult;
    expect(dry.structuredContent).toMatchObject({ dry_run: true, valid: true, free: true });
    expect(accepted(start)).toHaveLength(0);

    const booked = (await client.callTool(call("book_intro_call", person(start, { lead_id })))) as CallToolResult;
    expect(booked.isError).toBeFalsy();
    const booking = booked.structuredContent as unknown as Booking;
    expect(booking).toMatchObject({ status: "booked", lead_id });
    expect(Date.parse(booking.start)).toBe(Date.parse(start));
    expect(accepted(start)).toHaveLength(1);
    expect(JSON.stringify(booked)).not.toContain(accepted(start)[0]!.uid);

    // The delivery job sends the lead, then the studio's notice that the call was booked: once.
    await d.settle();
    await deliverDue(d.deliveryJob());
    await deliverDue(d.deliveryJob());
    const notices = d.postmark.sent.filter(
      (m) => m.body.Tag === "lead-call" && (m.body.Metadata as { lead_id: string }).lead_id === lead_id,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body.TextBody as string).toContain(booking.booking_id);

    const other = await connected(era, { clientId });
    const refused = (await other.client.callTool(call("cancel_intro_call", { booking_id: booking.booking_id }))) as CallToolResult;
    const unknown = (await other.client.callTool(call("cancel_intro_call", { booking_id: "bk_0123456789abcdefghjk" }))) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(text(unknown));
    expect(text(refused)).toMatch(/^Nothing was cancelled: /);
    expect(accepted(start)).toHaveLength(1);

    const cancelled = (await client.callTool(call("cancel_intro_call", { booking_id: booking.booking_id }))) as CallToolResult;
    expect(cancelled.structuredContent).toMatchObject({ booking_id: booking.booking_id, status: "cancelled" });
    expect(text(cancelled).split("\n")[0]).toBe(`Cancelled: ${booking.booking_id}, which was ${booking.start}.`);
    // What the booking said, in words beside its data.
    expect(text(booked).split("\n")[0]).toBe(
      `Booked: ${booking.booking_id}, ${booking.start} to ${(booking as unknown as { end: string }).end} (${booking.time_zone}). ${booking.next_steps}`,
    );
    expect(accepted(start)).toHaveLength(0);
    await Promise.all([client.close(), other.client.close()]);
  });

  it("names each invalid field, answers a taken time with fresh free times, and Cal.com down as unavailable", async () => {
    const { client } = await connected(era);
    const invalid = (await client.callTool(
      call("book_intro_call", { start: "tomorrow", lead_id: "lead_0123456789abcdefghjk" }),
    )) as CallToolResult;
    expect(invalid.isError).toBe(true);
    for (const field of ["/full_name", "/work_email", "/start", "/time_zone"]) expect(text(invalid)).toContain(field);

    const start = await freeStart();
    expect(((await client.callTool(call("book_intro_call", person(start)))) as CallToolResult).isError).toBeFalsy();
    const again = (await client.callTool(call("book_intro_call", person(start)))) as CallToolResult;
    expect(again.isError).toBe(true);
    const details = JSON.parse(text(again).slice(text(again).indexOf("\n\n{"))) as { code: string; free_times: FreeTimes };
    expect(details.code).toBe("slot_taken");
    expect(details.free_times.times.length).toBeGreaterThan(0);
    expect(details.free_times.times.map((t) => Date.parse(t.start))).not.toContain(Date.parse(start));

    const next = await freeStart();
    d.cal.fail("503");
    const down = (await client.callTool(call("book_intro_call", person(next)))) as CallToolResult;
    expect(down.isError, text(down)).toBe(true);
    expect(text(down)).toContain('"code": "calendar_unavailable"');
    expect(accepted(next)).toHaveLength(0);
    await client.close();
  });
});

describe("the HTTP layer", () => {
  it.each(["book_intro_call", "cancel_intro_call"])(
    "steps %s up as submit_project_brief: 401 without a token, 403 without svc:brief",
    async (name) => {
      const args = name === "book_intro_call" ? person(await freeStart()) : { booking_id: "bk_0123456789abcdefghjk" };
      const none = await d.mcp(mcpCall("tools/call", call(name, args)));
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toContain('scope="svc:brief"');
      const readOnly = await d.token("svc:read");
      const read = await d.mcp(mcpCall("tools/call", call(name, args), 2, { authorization: `Bearer ${readOnly}` }));
      expect(read.status).toBe(403);
      expect(read.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    },
  );
});

describe("a 2026-07-28 client that shows forms", () => {
  const modern = eras.find((e) => e.era === "modern")!;
  let answer: (form: any) => ElicitResult = () => ({ action: "cancel" });
  async function showing(grant = consentGrantId()) {
    const token = await d.token("svc:read svc:brief", `client-${crypto.randomUUID()}`, grant);
    return connectShowingForms(
      `${d.baseUrl}/mcp`,
      modern,
      { fetch: d.fetchFrom(), requestInit: { headers: { authorization: `Bearer ${token}` } } },
      (form) => answer(form),
    );
  }

  it("asks the person to confirm name, e-mail and time, chosen among the day's free times, and books what they chose", async () => {
    const { client, asked } = await showing();
    const start = await freeStart();
    const args = person(start);
    let other = "";
    answer = (form) => {
      const choices = form.requestedSchema.properties.start.oneOf as { const: string; title: string }[];
      other = choices.find((c) => Date.parse(c.const) !== Date.parse(start))!.const;
      return { action: "accept", content: { full_name: "Ada King", work_email: args.work_email, start: other } };
    };
    const result = (await client.callTool(call("book_intro_call", args))) as CallToolResult;
    expect(asked).toHaveLength(1);
    const form = asked[0] as { message: string; requestedSchema: { properties: Record<string, any>; required: string[] } };
    expect(form.requestedSchema.required).toEqual(["full_name", "work_email", "start"]);
    expect(form.requestedSchema.properties.start.default).toBe(start);
    expect(form.requestedSchema.properties.start.oneOf.length).toBeGreaterThan(1);
    expect(form.requestedSchema.properties.full_name.default).toBe("Ada Lovelace");
    const minutes = d.resources.contact.booking.duration_minutes;
    expect(form.message).toBe(
      `Book a ${minutes}-minute intro call with ${d.resources.site.name}? Cal.com e-mails the invitation to the work e-mail below. Check your name, e-mail and the time, and correct them if needed. Decline to book nothing.`,
    );
    // Each time offered is spoken in the person's time zone: the day, the start and the end.
    expect(form.requestedSchema.properties.start).toMatchObject({ title: "Time", description: "Times in Europe/London." });
    const offered = form.requestedSchema.properties.start.oneOf as { const: string; title: string }[];
    const chosen = offered.find((c) => Date.parse(c.const) === Date.parse(start))!;
    expect(chosen.const).toBe(start);
    const end = new Date(Date.parse(start) + minutes * 60_000);
    const at = (date: Date) =>
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(date);
    const day = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", weekday: "long", day: "numeric", month: "long" }).format(
      new Date(start),
    );
    expect(chosen.title).toBe(`${day}, ${at(new Date(start))} to ${at(end)} (Europe/London)`);
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain("The person confirmed");
    expect(accepted(start)).toHaveLength(0);
    expect(accepted(other)).toHaveLength(1);
    expect(accepted(other)[0]!.attendee.name).toBe("Ada King");
    await client.close();
  });

  it("asks again when the answer names a time the form never offered (another day's)", async () => {
    const { client, asked } = await showing();
    const start = await freeStart();
    const otherDay = new Date(Date.parse(start) + 86_400_000).toISOString();
    answer = () =>
      asked.length === 1
        ? { action: "accept", content: { full_name: "Ada King", work_email: "ada@engines.example", start: otherDay } }
        : { action: "decline" };
    const result = (await client.callTool(call("book_intro_call", person(start)))) as CallToolResult;
    expect(asked).toHaveLength(2);
    expect((asked[1] as { message: string }).message).toMatch(/ Please fix: start must be one of the times the form offers\.$/);
    expect(text(result)).toContain("NOTHING was booked");
    expect(accepted(otherDay)).toHaveLength(0);
    await client.close();
  });

  it("asks again naming each field the person got wrong, filled in with what they typed", async () => {
    const { client, asked } = await showing();
    const start = await freeStart();
    answer = () =>
      asked.length === 1 ? { action: "accept", content: { full_name: "", work_email: "nope", start } } : { action: "decline" };
    const result = (await client.callTool(call("book_intro_call", person(start)))) as CallToolResult;
    expect(asked).toHaveLength(2);
    const again = asked[1] as { message: string; requestedSchema: { properties: Record<string, any> } };
    expect(again.message).toMatch(/ Please fix: [^;]+; [^;]+\.$/);
    expect(again.message).toContain("work_email");
    expect(again.requestedSchema.properties.work_email.default).toBe("nope");
    expect(again.requestedSchema.properties.full_name.default).toBe("");
    expect(text(result)).toContain("NOTHING was booked");
    expect(accepted(start)).toHaveLength(0);
    await client.close();
  });

  it("asks again when the answer's time cannot be read, offering no time for it", async () => {
    const { client, asked } = await showing();
    const args = person(await freeStart());
    answer = () => (asked.length === 1 ? { action: "accept", content: { ...args, start: "soon" } } : { action: "decline" });
    await client.callTool(call("book_intro_call", args));
    expect(asked).toHaveLength(2);
    const again = asked[1] as { message: string; requestedSchema: { properties: Record<string, any> } };
    expect(again.message).toMatch(/ Please fix: start must be one of the times the form offers\.$/);
    expect(again.requestedSchema.properties.start).toMatchObject({ oneOf: [], default: "soon" });
    await client.close();
  });

  it("offers the start as it was sent, and the grant's own booking at that time as the only choice", async () => {
    const grant = consentGrantId();
    const { client, asked } = await showing(grant);
    answer = () => ({ action: "decline" });
    // The same instant in another spelling is the choice selected, as sent.
    const sent = new Date(await freeStart()).toISOString();
    await client.callTool(call("book_intro_call", person(sent)));
    const choices = (asked[0] as any).requestedSchema.properties.start.oneOf as { const: string; title: string }[];
    expect(choices.filter((c) => c.const === sent)).toHaveLength(1);
    expect(choices.filter((c) => Date.parse(c.const) === Date.parse(sent))).toHaveLength(1);
    // Booked by this grant already, the time is no longer free: it is still offered, with its end.
    const args = person(await freeStart());
    const plain = await connected(eras[1], { grant });
    expect(((await plain.client.callTool(call("book_intro_call", args))) as CallToolResult).isError).toBeFalsy();
    await client.callTool(call("book_intro_call", args));
    const only = (asked[1] as any).requestedSchema.properties.start.oneOf as { const: string; title: string }[];
    const end = new Date(Date.parse(args.start) + d.resources.contact.booking.duration_minutes * 60_000);
    const at = (date: Date) =>
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(date);
    expect(only).toEqual([
      { const: args.start, title: expect.stringContaining(`, ${at(new Date(args.start))} to ${at(end)} (Europe/London)`) },
    ]);
    expect(accepted(args.start)).toHaveLength(1);
    await Promise.all([client.close(), plain.client.close()]);
  });

  it("answers a booking without its time zone at once, naming the field, before anybody is asked", async () => {
    const { client, asked } = await showing();
    const { time_zone: _, ...args } = person(await freeStart());
    const result = (await client.callTool(call("book_intro_call", args))) as CallToolResult;
    expect(asked).toHaveLength(0);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^The call was NOT booked: [\s\S]*\/time_zone/);
    await client.close();
  });

  it("books nothing when the person declines", async () => {
    const { client, asked } = await showing();
    const start = await freeStart();
    answer = () => ({ action: "decline" });
    const result = (await client.callTool(call("book_intro_call", person(start)))) as CallToolResult;
    expect(asked).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("NOTHING was booked");
    expect(accepted(start)).toHaveLength(0);
    await client.close();
  });
});

/** A 2026-07-28 tools/call on the wire, from a client that shows forms. */
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
const send = async (params: Record<string, unknown>, token: string) => {
  const res = await d.mcp({
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": String(params.name),
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta: meta } }),
  });
  return ((await res.json()) as { result: Record<string, any> }).result;
};

describe("the booking form on the wire (2026-07-28)", () => {
  it("answers the accepted form sent again (its answer lost) with the same booking, never 'choose another time'", async () => {
    const token = await d.token("svc:read svc:brief", `client-${crypto.randomUUID()}`, consentGrantId());
    const args = person(await freeStart());
    const asked = await send(call("book_intro_call", args), token);
    expect(asked.resultType).toBe("input_required");
    const answer = {
      ...call("book_intro_call", args),
      inputResponses: {
        contact: { action: "accept", content: { full_name: args.full_name, work_email: args.work_email, start: args.start } },
      },
      requestState: asked.requestState,
    };
    const booked = await send(answer, token);
    expect(booked.isError, JSON.stringify(booked.content)).toBeFalsy();
    const again = await send(answer, token);
    expect(again.isError, JSON.stringify(again.content)).toBeFalsy();
    expect(again.structuredContent.booking_id).toBe(booked.structuredContent.booking_id);
    expect(again.content[0].text).toMatch(/^This form was already answered and its call booked/);
    expect(accepted(args.start)).toHaveLength(1);
  });

  /** A person's booking form, asked for and not yet answered: `answer` answers it. */
  const openBookingForm = async () => {
    const token = await d.token("svc:read svc:brief", `client-${crypto.randomUUID()}`, consentGrantId());
    const args = person(await freeStart());
    const { requestState } = await send(call("book_intro_call", args), token);
    const answer = (contact: object) => send({ ...call("book_intro_call", args), inputResponses: { contact }, requestState }, token);
    return { token, args, answer };
  };

  it("books nothing for a form closed without an answer, whatever is answered to it after", async () => {
    const { token, args, answer } = await openBookingForm();
    expect((await answer({ action: "cancel" })).content[0].text).toContain("NOTHING was booked");
    const after = await answer({
      action: "accept",
      content: { full_name: args.full_name, work_email: args.work_email, start: args.start },
    });
    expect(after.isError).toBe(true);
    expect(after.content[0].text).toContain("declined this form before");
    const day = args.start.slice(0, 10);
    const still = await send(call("list_free_times", { from: day, to: day, time_zone: args.time_zone }), token);
    expect((still.structuredContent as FreeTimes).times.map((t) => Date.parse(t.start))).toContain(Date.parse(args.start));
    expect(accepted(args.start)).toHaveLength(0);
  });

  it("answers a later decline of an accepted booking form with the booking, and once it is cancelled, that it was", async () => {
    const { token, args, answer } = await openBookingForm();
    const booked = await answer({
      action: "accept",
      content: { full_name: args.full_name, work_email: args.work_email, start: args.start },
    });
    const id = booked.structuredContent.booking_id;
    expect(id).toMatch(/^bk_/);
    const declined = await answer({ action: "decline" });
    expect(declined.content[0].text).not.toMatch(/NOTHING was booked/);
    expect(declined.content[0].text).toContain(`This form was already answered and its call booked: ${id}`);
    expect((await send(call("cancel_intro_call", { booking_id: id }), token)).isError).toBeFalsy();
    const after = await answer({ action: "cancel" });
    expect(after.content[0].text).toContain(`Booked before (${id}`);
    expect(after.structuredContent.status).toBe("cancelled");
  });
});

describe("an accepted form whose time is gone or cannot be checked (2026-07-28, on the wire)", () => {
  const accepting = (args: ReturnType<typeof person>, asked: Record<string, any>, content: Record<string, string>) => ({
    ...call("book_intro_call", args),
    inputResponses: { contact: { action: "accept", content } },
    requestState: asked.requestState,
  });
  /** Another person books `start` (which forgets the free times kept for its week). */
  const bookedByAnother = async (start: string) => {
    const { client } = await connected(eras[1]);
    expect(((await client.callTool(call("book_intro_call", person(start)))) as CallToolResult).isError).toBeFalsy();
    await client.close();
  };
  const details = (result: Record<string, any>) => JSON.parse(result.content[0].text.slice(result.content[0].text.indexOf("\n\n{")));

  it("answers a time taken meanwhile with fresh free times, and Cal.com down with when to retry, and books neither", async () => {
    const token = await d.token("svc:read svc:brief", `client-${crypto.randomUUID()}`, consentGrantId());
    const args = person(await freeStart());
    const asked = await send(call("book_intro_call", args), token);
    await bookedByAnother(args.start);
    const taken = await send(accepting(args, asked, args), token);
    expect(taken.isError).toBe(true);
    expect(taken.content[0].text).toMatch(/^The call was NOT booked: /);
    const free = details(taken) as { code: string; free_times: FreeTimes };
    expect(free.code).toBe("slot_taken");
    expect(free.free_times.times.map((t) => Date.parse(t.start))).not.toContain(Date.parse(args.start));
    expect(accepted(args.start)).toHaveLength(1);

    const next = person(await freeStart());
    const askedNext = await send(call("book_intro_call", next), token);
    await bookedByAnother(next.start);
    d.cal.fail("503");
    const down = await send(accepting(next, askedNext, next), token);
    expect(down.isError).toBe(true);
    expect(details(down)).toEqual({ code: "calendar_unavailable", retry_after: expect.any(Number) });
    expect(accepted(next.start)).toHaveLength(1);
  });

  it("asks again with the chosen time alone when the day's free times cannot be read just now", async () => {
    const token = await d.token("svc:read svc:brief", `client-${crypto.randomUUID()}`, consentGrantId());
    const args = person(await freeStart());
    const asked = await send(call("book_intro_call", args), token);
    await bookedByAnother(args.start);
    d.cal.fail("503");
    // An answer without the e-mail is asked again, with what was sent and typed.
    const again = await send(accepting(args, asked, { full_name: "Ada King", start: args.start }), token);
    expect(again.resultType).toBe("input_required");
    const { start, full_name } = again.inputRequests.contact.params.requestedSchema.properties;
    expect(full_name.default).toBe("Ada King");
    expect(start.oneOf).toEqual([{ const: args.start, title: expect.stringMatching(/ to .+ \(Europe\/London\)$/) }]);
  });
});

describe("a booking's idempotency_key", () => {
  it("answers the key again after its booking was cancelled as cancelled, with nothing booked", async () => {
    const { client } = await connected(eras[1]);
    const args = { ...person(await freeStart()), idempotency_key: crypto.randomUUID() };
    const booked = (await client.callTool(call("book_intro_call", args))) as CallToolResult;
    const { booking_id } = booked.structuredContent as { booking_id: string };
    await client.callTool(call("cancel_intro_call", { booking_id }));
    const again = (await client.callTool(call("book_intro_call", args))) as CallToolResult;
    expect(again.isError).toBeFalsy();
    const view = again.structuredContent as { start: string; end: string; cancelled_at: string; next_steps: string };
    expect(view).toMatchObject({ booking_id, status: "cancelled" });
    expect(text(again).split("\n")[0]).toBe(
      `Booked before (${booking_id}, ${view.start} to ${view.end}), then cancelled at ${view.cancelled_at}: nothing is booked now. ${view.next_steps}`,
    );
    expect(accepted(args.start)).toHaveLength(0);
    await client.close();
  });
});

describe("the booking form with the call's own idempotency_key (2026-07-28)", () => {
  it("answers the call made again with its key as already booked, the same booking, and asks the person nothing", async () => {
    const token = await d.token("svc:read svc:brief", `client-${crypto.randomUUID()}`, consentGrantId());
    const args = { ...person(await freeStart()), idempotency_key: crypto.randomUUID() };
    const asked = await send(call("book_intro_call", args), token);
    expect(asked.resultType).toBe("input_required");
    const booked = await send(
      {
        ...call("book_intro_call", args),
        inputResponses: {
          contact: { action: "accept", content: { full_name: args.full_name, work_email: args.work_email, start: args.start } },
        },
        requestState: asked.requestState,
      },
      token,
    );
    const { booking_id, start, end, time_zone } = booked.structuredContent;
    const confirmed = "The person confirmed their name, e-mail and the time in your client's form.";
    expect(booked.content[0].text.split("\n")[0]).toBe(
      `Booked: ${booking_id}, ${start} to ${end} (${time_zone}). ${confirmed} ${booked.structuredContent.next_steps}`,
    );
    const again = await send(call("book_intro_call", args), token);
    expect(again.resultType).not.toBe("input_required");
    expect(again.structuredContent.booking_id).toBe(booking_id);
    expect(again.content[0].text.split("\n")[0]).toBe(
      `Already booked (the same booking as before): ${booking_id}, ${start} to ${end}. ${confirmed} ${booked.structuredContent.next_steps}`,
    );
    expect(accepted(args.start)).toHaveLength(1);
  });
});

describe("a deployment without Cal.com", () => {
  let bare: Awaited<ReturnType<typeof startDeployment>>;
  beforeAll(async () => {
    bare = await startDeployment("local", { env: { CAL_EVENT_TYPE_ID: "", CAL_API_KEY: "" } });
  });
  afterAll(() => bare.close());

  it("offers no booking tool or prompt", async () => {
    const client = await connectMcp(`${bare.baseUrl}/mcp`, eras[0]!, { fetch: bare.fetchFrom() });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("book_intro_call");
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("list_free_times");
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain("book_intro_call");
    await client.close();
  });
});
