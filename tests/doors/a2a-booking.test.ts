import { AgentCard, TaskState, verifyAgentCardSignature, type Message, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { importJWK, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSkillIds } from "../../src/booking/names.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { inProcessAgent } from "../support/a2a-agent.ts";
import { a2aClient, bindings, dataOf, isTask, listing, message, textOf } from "../support/a2a-client.ts";
import { a2aSkillsTable } from "../../src/guide/a2a-tables.ts";
import { buildSite } from "../../src/site/model.ts";
import { json } from "../support/calls.ts";
import { loadContentDir } from "../support/content.ts";
import { fileDeployment, startDeployment, type Deployment } from "../support/deployment.ts";
import { person, type FreeTimes, type BookingView as Booking } from "../support/booking.ts";

/**
 * The intro call as A2A skills, in-process over each binding with the SDK's client, against the Cal.com stand-in: free
 * times (a read), booking and cancelling (tasks with svc:brief), and each refusal as the skill answers it. REST booking
 * is in tests/doors/booking.test.ts; a deployment without Cal.com in tests/doors/booking-config.test.ts.
 */
const { d } = fileDeployment("local");

const la = "America/Los_Angeles";
const { freeTimes, book, cancel } = bookingSkillIds;
const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);

/** A message to the booking skill, named in metadata; or, with a task id, a reply in that task. */
const booking = (fields: Record<string, unknown>, taskId?: string) =>
  message([{ data: fields }], taskId ? undefined : { skillId: book }, taskId);
const cancelling = (bookingId: string) => message([{ data: { skill: cancel, booking_id: bookingId } }]);

/** Starts no test has taken, from the week's free times (far from the first, so notice never makes one stale). */
const used = new Set<number>();
const take = (start: string) => (used.add(Date.parse(start)), start);
async function freeStart(): Promise<string> {
  const { times } = (await (await d.api(`/api/v1/free-times?time_zone=${la}`)).json()) as FreeTimes;
  return take(times.slice(10).find((t) => !used.has(Date.parse(t.start)))!.start);
}
/** The week's last start no test has taken: on a day of its own, so it leaves the earlier days' times to other tests. */
async function lastFreeStart(): Promise<string> {
  const { times } = (await (await d.api(`/api/v1/free-times?time_zone=${la}`)).json()) as FreeTimes;
  return take(times.filter((t) => !used.has(Date.parse(t.start))).at(-1)!.start);
}
/**
 * A start no test has taken, on a day with two more such starts: a refusal's fresh free times for that day offer one.
 * A day from tomorrow on, so that no start of it passes while the test runs (today's could: the clock is the machine's).
 */
async function freeStartAmongOthers(): Promise<string> {
  const { times } = (await (await d.api(`/api/v1/free-times?time_zone=${la}`)).json()) as FreeTimes;
  const free = times.filter((t) => !used.has(Date.parse(t.start)) && Date.parse(t.start) > Date.now() + 86_400_000);
  const sameDay = (a: { start: string }) => free.filter((b) => b.start.slice(0, 10) === a.start.slice(0, 10)).length;
  return take(free.find((t) => sameDay(t) >= 3)!.start);
}
const bookedAt = (start: string) => d.cal.bookings().filter((b) => Date.parse(b.start) === Date.parse(start));

const stateOf = (task: Task) => task.status?.state;
const statusData = (task: Task) => dataOf(task.status!.message!.parts) as Record<string, unknown>;
const artifactOf = (task: Task, name: string) => {
  const artifact = task.artifacts.find((a) => a.name === name);
  return artifact && (dataOf(artifact.parts) as Record<string, unknown>);
};

describe.each(bindings)("over %s", (_, binding) => {
  const clientFor = (token?: string): Promise<Client> => a2aClient(d.baseUrl, { binding, token, fetchImpl: d.fetchFrom() });
  const send = async (client: Client, request: ReturnType<typeof message>) => {
    const result = await client.sendMessage(request);
    expect(isTask(result)).toBe(true);
    return result as Task;
  };
  let anonymous: Client;
  beforeAll(async () => {
    anonymous = await clientFor();
  });

  describe("free times", () => {
    it("answers anonymously with the JSON of GET /api/v1/free-times and a short text", async () => {
      const query = { from: day(14), to: day(17), time_zone: la };
      const result = await anonymous.sendMessage(message([{ data: { skill: freeTimes, ...query } }]));
      expect(isTask(result)).toBe(false);
      const { parts } = result as Message;
      const rest = await (await d.api(`/api/v1/free-times?${new URLSearchParams(query)}`)).json();
      expect((rest as FreeTimes).times.length).toBeGreaterThan(0);
      expect(dataOf(parts)).toEqual(rest);
      expect(textOf(parts).length).toBeLessThan(200);
      const free = rest as FreeTimes;
      expect(textOf(parts)).toBe(
        `${d.resources.site.name}: ${free.times.length} free times for the intro call from ${free.from} to ${free.to} (${la}), the same JSON as GET ${d.baseUrl}/api/v1/free-times.`,
      );
    });

    it("is chosen by words about free times, while booking words still find the contact details", async () => {
      const free = (await anonymous.sendMessage(message([{ text: "Which times are free for an intro call next week?" }]))) as Message;
      expect(dataOf(free.parts)).toMatchObject({ time_zone: d.resources.contact.hours.time_zone, duration_minutes: 30 });
      const contact = (await anonymous.sendMessage(message([{ text: "How do I book an intro call?" }]))) as Message;
      expect(dataOf(contact.parts)).toEqual(await (await d.api("/api/v1/contact")).json());
    });

    it("names each invalid field in the text and as the errors of invalid_query, in a message", async () => {
      const result = (await anonymous.sendMessage(
        message([{ data: { skill: freeTimes, time_zone: "Mars/Olympus", when: "soon" } }]),
      )) as Message;
      expect(isTask(result)).toBe(false);
      const data = dataOf(result.parts) as { code: string; errors: { field: string }[] };
      expect(data.code).toBe("invalid_query");
      expect(data.errors.map((e) => e.field).sort()).toEqual(["/time_zone", "/when"]);
      expect(textOf(result.parts)).toMatch(/time_zone must be an IANA time zone/);
    });

    it("answers a Cal.com outage with calendar_unavailable and when to retry", async () => {
      d.cal.fail("503");
      // Cal.com is asked for whole weeks of UTC days, kept a minute: days two weeks apart share no week, whatever today is.
      const ahead = binding === "JSONRPC" ? 40 : 54;
      const result = (await anonymous.sendMessage(message([{ data: { skill: freeTimes, from: day(ahead), to: day(ahead) } }]))) as Message;
      expect(dataOf(result.parts)).toEqual({ code: "calendar_unavailable", retry_after: expect.any(Number) });
      expect(textOf(result.parts)).toMatch(/Retry in \d+ seconds/);
    });
  });

  describe("booking", () => {
    it("needs a token with svc:brief, as the brief does: 401 without one, 403 with svc:read, and nothing booked", async () => {
      const start = await freeStart();
      await expect(anonymous.sendMessage(booking(person(start)))).rejects.toThrow(/No access token/);
      const readOnly = await clientFor(await d.token("svc:read"));
      await expect(readOnly.sendMessage(booking(person(start)))).rejects.toThrow(/svc:brief/);
      await expect(readOnly.sendMessage(cancelling(`bk_${"0".repeat(20)}`))).rejects.toThrow(/svc:brief/);
      expect(bookedAt(start)).toEqual([]);
    });

    it("books the time, completes the task with the booking, and shows none of Cal.com's identifiers", async () => {
      const start = await freeStart();
      const task = await send(await clientFor(await d.token("svc:brief")), booking(person(start)));
      expect(stateOf(task)).toBe(TaskState.TASK_STATE_COMPLETED);
      const made = artifactOf(task, "booking") as unknown as Booking;
      expect(made).toMatchObject({ status: "booked", booking_id: expect.stringMatching(/^bk_/), next_steps: expect.any(String) });
      expect(Date.parse(made.start)).toBe(Date.parse(start));
      expect(textOf(task.status!.message!.parts)).toBe(
        `Booked: booking ${made.booking_id}, ${made.start} (${made.time_zone}). ${made.next_steps}`,
      );
      const [theirs] = bookedAt(start);
      expect(theirs!.metadata.frontdoor_booking).toBe(made.booking_id);
      const answer = JSON.stringify(task);
      expect(answer).not.toContain(theirs!.uid);
      expect(answer).not.toContain(`"id":${theirs!.id}`);
    });

    it("checks a dry run and books nothing", async () => {
      const start = await freeStart();
      const task = await send(await clientFor(await d.token("svc:brief")), booking(person(start, { dry_run: true })));
      expect(stateOf(task)).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactOf(task, "dry-run")).toMatchObject({ dry_run: true, valid: true, free: true });
      expect(bookedAt(start)).toEqual([]);
    });

    it("asks for each missing or invalid field, then books when a reply in the task brings them", async () => {
      const client = await clientFor(await d.token("svc:brief"));
      const first = await send(client, message([{ data: { skill: book, full_name: "Ada Lovelace", extra: 1 } }]));
      expect(stateOf(first)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const asked = statusData(first) as { code: string; errors: { field: string }[] };
      expect(asked.code).toBe("invalid_booking");
      expect(asked.errors.map((e) => e.field).sort()).toEqual(["/extra", "/start", "/time_zone", "/work_email"]);
      // The valid fields are kept for the reply, under the booking's name.
      expect(first.metadata).toEqual({ skill: book, booking_fields: { full_name: "Ada Lovelace" } });
      const start = await freeStart();
      const { full_name: _, ...rest } = person(start);
      const done = await send(client, booking(rest, first.id));
      expect(done.id).toBe(first.id);
      expect(stateOf(done)).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactOf(done, "booking")).toMatchObject({ status: "booked", attendee: { full_name: "Ada Lovelace" } });
      expect(bookedAt(start)).toHaveLength(1);
    });

    it("asks for another start when the time is taken, with fresh free times, and books the one the reply names", async () => {
      const start = await freeStartAmongOthers();
      expect(stateOf(await send(await clientFor(await d.token("svc:brief")), booking(person(start))))).toBe(TaskState.TASK_STATE_COMPLETED);
      const client = await clientFor(await d.token("svc:brief"));
      // With an idempotency_key: a key that booked nothing carries on to the time the reply names.
      const refused = await send(client, booking(person(start, { idempotency_key: crypto.randomUUID() })));
      expect(stateOf(refused)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const { code, free_times } = statusData(refused) as { code: string; free_times: FreeTimes };
      expect(code).toBe("slot_taken");
      const offered = free_times.times.map((t) => Date.parse(t.start));
      expect(offered.length).toBeGreaterThan(0);
      expect(offered).not.toContain(Date.parse(start));
      const other = take(free_times.times.find((t) => !used.has(Date.parse(t.start)))!.start);
      const done = await send(client, booking({ start: other }, refused.id));
      expect(stateOf(done)).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(Date.parse((artifactOf(done, "booking") as unknown as Booking).start)).toBe(Date.parse(other));
      expect(bookedAt(start)).toHaveLength(1);
    });

    it("drops a start refused as taken from what the task keeps: a reply without another start is asked for one", async () => {
      const start = await lastFreeStart();
      expect(stateOf(await send(await clientFor(await d.token("svc:brief")), booking(person(start))))).toBe(TaskState.TASK_STATE_COMPLETED);
      const client = await clientFor(await d.token("svc:brief"));
      const refused = await send(client, booking(person(start)));
      expect((statusData(refused) as { code: string }).code).toBe("slot_taken");
      const reply = await send(client, booking({ work_email: "ada@engines.example" }, refused.id));
      expect(stateOf(reply)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(statusData(reply)).toMatchObject({ code: "invalid_booking", errors: [{ field: "/start", code: "required" }] });
      expect(bookedAt(start)).toHaveLength(1);
    });

    it("books once per idempotency_key, refuses the key with another booking, and names a bad key as a field", async () => {
      const start = await freeStart();
      const client = await clientFor(await d.token("svc:brief"));
      const fields = person(start, { idempotency_key: crypto.randomUUID() });
      const first = await send(client, booking(fields));
      const again = await send(client, booking(fields));
      expect([stateOf(first), stateOf(again)]).toEqual([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_COMPLETED]);
      expect(artifactOf(again, "booking")!.booking_id).toBe(artifactOf(first, "booking")!.booking_id);
      expect(textOf(again.status!.message!.parts)).toMatch(/^Already booked/);
      const reused = await send(client, booking({ ...fields, full_name: "Someone Else" }));
      expect(stateOf(reused)).toBe(TaskState.TASK_STATE_FAILED);
      expect(statusData(reused)).toEqual({ code: "idempotency_key_reused" });
      expect(bookedAt(start)).toHaveLength(1);

      const bad = await send(client, booking(person(await freeStart(), { idempotency_key: "" })));
      expect(stateOf(bad)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(statusData(bad)).toMatchObject({ code: "invalid_idempotency_key", errors: [{ field: "/idempotency_key" }] });
    });

    it("keeps a booking and its task to the grant that made it; another person through the same client gets not_found", async () => {
      const start = await freeStart();
      const clientId = `client-${crypto.randomUUID()}`;
      const owner = await clientFor(await d.token("svc:brief", clientId, consentGrantId()));
      const other = await clientFor(await d.token("svc:brief", clientId, consentGrantId()));
      const task = await send(owner, booking(person(start)));
      const { booking_id } = artifactOf(task, "booking") as unknown as Booking;

      const theirs = await send(other, cancelling(booking_id));
      const unknown = await send(other, cancelling(`bk_${"0".repeat(20)}`));
      for (const refused of [theirs, unknown]) {
        expect(stateOf(refused)).toBe(TaskState.TASK_STATE_FAILED);
        expect(statusData(refused)).toEqual({ code: "not_found" });
      }
      expect(textOf(theirs.status!.message!.parts)).toBe(textOf(unknown.status!.message!.parts));
      await expect(other.getTask({ tenant: "", id: task.id })).rejects.toThrow(/not found/i);
      expect((await other.listTasks(listing())).tasks.map((t) => t.id)).not.toContain(task.id);
      expect(bookedAt(start)[0]!.status).toBe("accepted");

      const cancelled = await send(owner, cancelling(booking_id));
      expect(stateOf(cancelled)).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactOf(cancelled, "booking")).toMatchObject({ booking_id, status: "cancelled" });
      const { start: at, time_zone } = artifactOf(cancelled, "booking") as unknown as Booking;
      expect(textOf(cancelled.status!.message!.parts)).toBe(`Cancelled: booking ${booking_id}, ${at} (${time_zone}).`);
      expect(bookedAt(start)[0]!.status).toBe("cancelled");
      expect((await owner.getTask({ tenant: "", id: task.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it("asks for a booking_id when a cancellation has none, and cancels the one a reply in the task names", async () => {
      const client = await clientFor(await d.token("svc:brief"));
      const start = await lastFreeStart();
      const { booking_id } = artifactOf(await send(client, booking(person(start))), "booking") as unknown as Booking;
      const task = await send(client, message([{ data: { skill: cancel } }]));
      expect(stateOf(task)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(statusData(task)).toMatchObject({ code: "invalid_booking", errors: [{ field: "/booking_id", code: "required" }] });
      // The reply names no skill: the task's own, cancelling, is what it continues.
      const done = await send(client, message([{ data: { booking_id } }], undefined, task.id));
      expect(stateOf(done)).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactOf(done, "booking")).toMatchObject({ booking_id, status: "cancelled" });
      expect(bookedAt(start)[0]!.status).toBe("cancelled");
    });

    it("names an unknown field of a cancellation as no cancellation field, in its data and its words", async () => {
      const id = `bk_${"0".repeat(20)}`;
      const task = await send(
        await clientFor(await d.token("svc:brief")),
        message([{ data: { skill: cancel, booking_id: id, colour: "red" } }]),
      );
      expect(stateOf(task)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(statusData(task)).toMatchObject({
        code: "invalid_booking",
        errors: [{ field: "/colour", code: "unknown_field", message: "colour is not a cancellation field" }],
      });
      expect(textOf(task.status!.message!.parts)).toContain("colour is not a cancellation field");
      // A cancellation takes no idempotency_key (cancelling again answers the cancelled booking): it is no field of one.
      const keyed = await send(
        await clientFor(await d.token("svc:brief")),
        message([{ data: { skill: cancel, booking_id: id, idempotency_key: "k-1" } }]),
      );
      expect(statusData(keyed)).toMatchObject({
        code: "invalid_booking",
        errors: [{ field: "/idempotency_key", code: "unknown_field", message: "idempotency_key is not a cancellation field" }],
      });
    });

    it("fails the task on a Cal.com outage, with when to retry, and books nothing", async () => {
      const start = await freeStart();
      d.cal.fail("503");
      const task = await send(await clientFor(await d.token("svc:brief")), booking(person(start)));
      expect(stateOf(task)).toBe(TaskState.TASK_STATE_FAILED);
      expect(statusData(task)).toEqual({ code: "calendar_unavailable", retry_after: expect.any(Number) });
      expect(task.artifacts).toEqual([]);
      expect(bookedAt(start)).toEqual([]);
    });

    it("rejects the grant's fourth booking in a day, with retry_after", async () => {
      const client = await clientFor(await d.token("svc:brief"));
      for (let i = 0; i < 3; i++)
        expect(stateOf(await send(client, booking(person(await freeStart()))))).toBe(TaskState.TASK_STATE_COMPLETED);
      const start = await freeStart();
      const fourth = await send(client, booking(person(start)));
      expect(stateOf(fourth)).toBe(TaskState.TASK_STATE_REJECTED);
      expect(statusData(fourth)).toEqual({ code: "booking_quota_exceeded", retry_after: expect.any(Number) });
      expect(bookedAt(start)).toEqual([]);
    });
  });
});

describe("storage", () => {
  it("counts every message to booking and cancelling against a2a-briefs, as a brief's, and free times against nothing more", async () => {
    const token = await d.token("svc:brief");
    const sent = (data: Record<string, unknown>, metadata?: Record<string, unknown>) =>
      d.a2a(
        json(
          {
            jsonrpc: "2.0",
            id: 1,
            method: "SendMessage",
            params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data }], metadata } },
          },
          { "a2a-version": "1.0", authorization: `Bearer ${token}` },
        ),
      );
    const booked = await sent({ full_name: "Ada Lovelace" }, { skillId: book });
    expect(booked.headers.get("ratelimit")).toMatch(/"a2a-briefs";r=29;/);
    const cancelled = await sent({ skill: cancel });
    expect(cancelled.headers.get("ratelimit")).toMatch(/"a2a-briefs";r=28;/);
    const read = await sent({ skill: freeTimes });
    expect(read.status).toBe(200);
    expect(read.headers.get("ratelimit-policy")).not.toContain("a2a-briefs");
  });
});

describe("the agent card", () => {
  it("lists the three skills, the writes with svc:brief, and is signed with the served key set", async () => {
    const fetchImpl = d.fetchFrom();
    const card = (await (await fetchImpl(`${d.baseUrl}/.well-known/agent-card.json`)).json()) as Record<string, unknown> & {
      skills: { id: string; description: string; securityRequirements?: { schemes: Record<string, { list: string[] }> }[] }[];
    };
    const skills = new Map(card.skills.map((s) => [s.id, s]));
    expect([freeTimes, book, cancel].every((id) => skills.has(id))).toBe(true);
    expect(skills.get(freeTimes)!.securityRequirements).toBeUndefined();
    for (const id of [book, cancel])
      for (const requirement of skills.get(id)!.securityRequirements!)
        expect(Object.values(requirement.schemes).map((s) => s.list)).toEqual([["svc:brief"]]);
    // The descriptions come from the schemas: every booking field is named.
    for (const field of ["full_name", "work_email", "start", "time_zone", "lead_id", "dry_run", "idempotency_key"])
      expect(skills.get(book)!.description).toContain(field);

    const { keys } = (await (await fetchImpl(`${d.baseUrl}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    await verifyAgentCardSignature(
      async (kid) =>
        (await importJWK(
          keys.find((k) => k.kid === kid)!,
          "ES256",
        )) as CryptoKey,
    )(
      // The SDK canonicalises the card's JSON form, as the build signed it.
      card as unknown as AgentCard,
    );
  });
});

describe("the developer page", () => {
  it("lists the three skills in its A2A skills table where booking is offered, and not elsewhere", async () => {
    const content = await loadContentDir("content");
    const idsIn = (agentBooking: boolean) =>
      a2aSkillsTable(buildSite(content, d.baseUrl, { agentBooking })).rows.map((row) => (row[0] as { code: string }).code);
    expect(idsIn(true)).toEqual(expect.arrayContaining([freeTimes, book, cancel]));
    expect(idsIn(false).filter((id) => [freeTimes, book, cancel].includes(id as never))).toEqual([]);
  });
});

describe("a deployment that does not offer booking", () => {
  let off: Deployment;
  beforeAll(async () => {
    off = await startDeployment("local", { env: { CAL_EVENT_TYPE_ID: "", CAL_API_KEY: "" } });
  });
  afterAll(() => off?.close());

  it.each(bindings)("has no booking skills on its card, and answers their names as unknown skills, over %s", async (_, binding) => {
    const fetchImpl = off.fetchFrom();
    const card = (await (await fetchImpl(`${off.baseUrl}/.well-known/agent-card.json`)).json()) as { skills: { id: string }[] };
    expect(card.skills.map((s) => s.id).filter((id) => Object.values(bookingSkillIds).includes(id as never))).toEqual([]);
    const client = await a2aClient(off.baseUrl, { binding, fetchImpl });
    for (const skill of Object.values(bookingSkillIds)) {
      const result = (await client.sendMessage(message([{ data: { skill, ...person("2030-01-07T09:00:00Z") } }]))) as Message;
      expect(isTask(result)).toBe(false);
      expect(textOf(result.parts)).toContain(`no skill "${skill}"`);
    }
    const words = (await client.sendMessage(message([{ text: "Which times are free?" }]))) as Message;
    expect(dataOf(words.parts)).not.toHaveProperty("times");
  });
});

describe("a card that offers booking where the function has no Cal.com", () => {
  let agent: Awaited<ReturnType<typeof inProcessAgent>>;
  beforeAll(async () => {
    agent = await inProcessAgent({ agentBooking: true });
  });
  afterAll(() => agent?.close());
  const userMessage = (data: Record<string, unknown>) => ({ messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data }] });

  it("answers free times with booking_not_offered in a message, and fails a booking's task with it, on each binding", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:brief")}` };
    const rpc = (data: Record<string, unknown>) =>
      agent.rpc({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: userMessage(data) } }, auth);
    const rest = (data: Record<string, unknown>) => agent.restSend({ message: userMessage(data) }, auth);
    for (const send of [rpc, rest]) {
      const read = (await (await send({ skill: freeTimes })).json()) as { result?: any; message?: any };
      const answer = read.result?.message ?? read.message;
      expect(answer.parts.find((p: { data?: unknown }) => p.data).data).toEqual({ code: "booking_not_offered" });
      const write = (await (await send({ skill: book, ...person("2030-01-07T09:00:00Z") })).json()) as { result?: any; task?: any };
      const task = write.result?.task ?? write.task;
      expect(task.status.state).toBe("TASK_STATE_FAILED");
      expect(task.status.message.parts.find((p: { data?: unknown }) => p.data).data).toEqual({ code: "booking_not_offered" });
    }
  });
});
