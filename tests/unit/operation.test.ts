import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { BookingDeps } from "../../src/booking/book.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import type { FilingRequest } from "../../src/briefs/pipeline.ts";
import { briefSchema, type Brief } from "../../src/briefs/schema.ts";
import type { FieldError } from "../../src/briefs/validate.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { bookIntroCall, cancelIntroCall, listFreeTimes } from "../../src/operations/booking.ts";
import { fileBriefOperation, sendContactFormOperation } from "../../src/operations/briefs.ts";
import {
  anyone,
  callerOf,
  idempotencyKeyRule,
  invalidInput,
  keyAsArgument,
  perform,
  type Call,
  type Operation,
} from "../../src/operations/operation.ts";

/**
 * What every door relies on in src/operations/operation.ts: `perform` checks readiness, then the key, then the input,
 * and hands `run` the parsed input and the call; refusals name each field. The operations' own work is tested through
 * the doors (tests/doors).
 */
const caller = { clientId: "client-1", owner: "grant-1", address: "10.0.0.1" };

/** An operation that records each call it runs, and whether it was ready. */
function recording({ idempotent = true, ready }: { idempotent?: boolean; ready?: () => Promise<unknown> } = {}) {
  const runs: { input: unknown; call: Call<{ tag: string }> }[] = [];
  const operation: Operation<z.ZodObject<{ name: z.ZodString; count: z.ZodOptional<z.ZodNumber> }>, string, { tag: string }> = {
    name: "do_it",
    scope: undefined,
    input: z.object({ name: z.string().trim().min(1, "name is empty"), count: z.number().optional() }).strict(),
    noun: "thing",
    invalid: "invalid_brief",
    idempotent,
    ...(ready ? { ready } : {}),
    async run(input, call) {
      runs.push({ input, call });
      return "done";
    },
  };
  return { operation, runs };
}

const services = { tag: "services" };

describe("perform", () => {
  it("hands run the parsed input, the caller, the channel, the services and a string key", async () => {
    const { operation, runs } = recording();
    expect(await perform(operation, { name: "  Ada " }, { caller, channel: "mcp", idempotencyKey: "key-1", services })).toBe("done");
    expect(runs).toEqual([{ input: { name: "Ada" }, call: { caller, channel: "mcp", idempotencyKey: "key-1", services } }]);
  });

  it("passes no key where the door read none", async () => {
    const { operation, runs } = recording();
    await perform(operation, { name: "Ada" }, { caller, channel: "rest", services });
    expect(runs[0]!.call).not.toHaveProperty("idempotencyKey");
  });

  it.each([
    ["an empty string", ""],
    ["a number", 42],
    ["a key starting with a space", " key"],
    ["a key with a control character", "key\n"],
    ["a key too long", "k".repeat(256)],
  ])("refuses %s as the key, before reading the input, and runs nothing", async (_, key) => {
    const { operation, runs } = recording();
    await expect(perform(operation, {}, { caller, channel: "a2a", idempotencyKey: key, services })).rejects.toMatchObject({
      condition: "invalid_idempotency_key",
    });
    expect(runs).toEqual([]);
  });

  it("takes a key of 255 visible characters, spaces after the first", async () => {
    const { operation, runs } = recording();
    const key = `k ${"x".repeat(253)}`;
    await perform(operation, { name: "Ada" }, { caller, channel: "a2a", idempotencyKey: key, services });
    expect(runs[0]!.call.idempotencyKey).toBe(key);
  });

  it("refuses any key for an operation that takes none", async () => {
    const { operation, runs } = recording({ idempotent: false });
    await expect(perform(operation, { name: "Ada" }, { caller, channel: "form", idempotencyKey: "key-1", services })).rejects.toMatchObject(
      {
        condition: "invalid_idempotency_key",
      },
    );
    expect(runs).toEqual([]);
  });

  it("refuses invalid input field by field, under the operation's condition", async () => {
    const { operation, runs } = recording();
    const refusal = await perform(operation, { name: " ", count: "3", colour: "red" }, { caller, channel: "rest", services }).catch(
      (e) => e,
    );
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal.condition).toBe("invalid_brief");
    const fields = (refusal.options.extensions.errors as { field: string }[]).map((e) => e.field);
    expect(fields.sort()).toEqual(["/colour", "/count", "/name"]);
    expect(refusal.options.detail).toMatch(/^3 fields are missing or invalid: .+\.$/);
    expect(runs).toEqual([]);
  });

  it("asks the operation whether it is ready first, and refuses as it does whatever the input", async () => {
    const order: string[] = [];
    const { operation, runs } = recording({
      ready: async () => {
        order.push("ready");
        throw new Refusal("booking_not_offered");
      },
    });
    await expect(perform(operation, {}, { caller, channel: "mcp", idempotencyKey: 1, services })).rejects.toMatchObject({
      condition: "booking_not_offered",
    });
    expect(order).toEqual(["ready"]);
    expect(runs).toEqual([]);
  });
});

describe("invalidInput", () => {
  it("counts the fields in its detail, one or many, and keeps the errors", () => {
    const one: FieldError[] = [{ field: "/a", code: "required", message: "a is required" }];
    expect(invalidInput("invalid_booking", one).options).toEqual({
      detail: "1 field is missing or invalid: a is required.",
      extensions: { errors: one },
    });
    const two: FieldError[] = [...one, { field: "/b", code: "too_long", message: "b is too long" }];
    const refusal = invalidInput("invalid_query", two);
    expect(refusal.condition).toBe("invalid_query");
    expect(refusal.options.detail).toBe("2 fields are missing or invalid: a is required; b is too long.");
  });
});

describe("keyAsArgument", () => {
  it("names a bad key as the idempotency_key field where the key travels among the arguments", () => {
    const named = keyAsArgument(new Refusal("invalid_idempotency_key")) as Refusal;
    expect(named.condition).toBe("invalid_idempotency_key");
    expect(idempotencyKeyRule).toBe("idempotency_key must be 1 to 255 visible ASCII characters");
    expect(named.options).toEqual({
      detail: `${idempotencyKeyRule}.`,
      extensions: { errors: [{ field: "/idempotency_key", code: "invalid_format", message: idempotencyKeyRule }] },
    });
  });

  it("leaves every other error as it is", () => {
    const other = new Refusal("invalid_brief");
    expect(keyAsArgument(other)).toBe(other);
    const failure = new Error("boom");
    expect(keyAsArgument(failure)).toBe(failure);
  });
});

describe("callers", () => {
  it("makes a token's grant the owner, and keeps its waitUntil only where there is one", () => {
    const token = { clientId: "client-1", grantId: "grant-1", address: "10.0.0.1" };
    expect(callerOf(token)).toEqual(caller);
    const waitUntil = () => {};
    expect(callerOf(token, waitUntil)).toEqual({ ...caller, waitUntil });
  });

  it("reads as nobody in particular", () => {
    expect(anyone).toEqual({ clientId: "", owner: "", address: "" });
  });
});

describe("the operations' own contracts", () => {
  const booking = { booking: () => ({}) as BookingDeps, studio: "Kestrel Studio" };

  it("takes an idempotency key for a booking only, never for a cancellation or a free-times read", async () => {
    for (const operation of [cancelIntroCall, listFreeTimes] as const)
      await expect(
        perform(
          operation as Operation<z.ZodObject, unknown, typeof booking>,
          {},
          { caller, channel: "mcp", idempotencyKey: "key-1", services: booking },
        ),
      ).rejects.toMatchObject({ condition: "invalid_idempotency_key" });
    expect(bookIntroCall.idempotent).toBe(true);
  });

  it("refuses every booking operation the same way where Cal.com is not configured", async () => {
    const none = { booking: () => undefined, studio: "Kestrel Studio" };
    for (const operation of [bookIntroCall, cancelIntroCall, listFreeTimes] as const)
      await expect(
        perform(operation as Operation<z.ZodObject, unknown, typeof none>, {}, { caller, channel: "a2a", services: none }),
      ).rejects.toMatchObject({ condition: "booking_not_offered" });
  });

  it("files the contact form's brief without a key and without a dry run, naming a wrong field as no brief field", async () => {
    const filed: unknown[] = [];
    const services = { file: async (...args: unknown[]) => (filed.push(args), Promise.reject(new Error("not here"))) } as never;
    const send = sendContactFormOperation(briefSchema(["launch-site"]));
    expect([send.name, send.scope, send.idempotent]).toEqual(["send_project_brief", undefined, false]);
    await expect(perform(send, {}, { caller, channel: "form", idempotencyKey: "key-1", services })).rejects.toMatchObject({
      condition: "invalid_idempotency_key",
    });
    const person = { full_name: "Ada Lovelace", company_name: "Engines", work_email: "ada@engines.example" };
    const refusal = await perform(send, { ...person, dry_run: true }, { caller, channel: "form", services }).catch((e) => e);
    expect(refusal).toMatchObject({
      condition: "invalid_brief",
      options: { extensions: { errors: [{ field: "/dry_run", code: "unknown_field", message: "dry_run is not a brief field" }] } },
    });
    expect(filed).toEqual([]);
    await expect(perform(send, person, { caller, channel: "form", services })).rejects.toThrow("not here");
    expect(filed).toMatchObject([[person, { channel: "form", clientId: caller.clientId, owner: caller.owner, address: caller.address }]]);
  });
});

describe("filing a brief through the operation", () => {
  const schema = briefSchema(["launch-site"]);
  const person = { full_name: "Ada Lovelace", company_name: "Engines", work_email: "ada@engines.example" };
  /** Services that file into a list, and answer with a lead for the brief. */
  function filing() {
    const requests: FilingRequest[] = [];
    const services = {
      schema,
      studio: "Kestrel Studio",
      responseTime: "We reply within a day.",
      file: async (brief: Brief, request: FilingRequest) => {
        requests.push(request);
        const lead = { id: "lead_1", received_at: "2026-12-02T00:00:00.000Z", brief } as Lead;
        return { kind: "filed" as const, lead };
      },
      filedUnder: async () => null,
      checkKey: async () => undefined,
    };
    return { services, requests };
  }

  it("hands the pipeline the caller, the door, its key and its waitUntil, and answers the receipt", async () => {
    const { services, requests } = filing();
    const waitUntil = () => {};
    const outcome = await perform(fileBriefOperation(schema), person, {
      caller: { ...caller, waitUntil },
      channel: "a2a",
      idempotencyKey: "key-1",
      services,
    });
    expect(requests).toEqual([
      { channel: "a2a", clientId: "client-1", owner: "grant-1", address: "10.0.0.1", idempotencyKey: "key-1", waitUntil },
    ]);
    expect(outcome).toMatchObject({
      kind: "filed",
      receipt: {
        lead_id: "lead_1",
        next_steps: "A person at Kestrel Studio will reply by e-mail to ada@engines.example. We reply within a day.",
      },
    });
  });

  it("hands it neither a key nor a waitUntil where the call had none", async () => {
    const { services, requests } = filing();
    await perform(fileBriefOperation(schema), person, { caller, channel: "rest", services });
    expect(requests).toEqual([{ channel: "rest", clientId: "client-1", owner: "grant-1", address: "10.0.0.1" }]);
  });

  it("names a field the brief does not have as no brief field", async () => {
    const { services, requests } = filing();
    await expect(
      perform(fileBriefOperation(schema), { ...person, colour: "red" }, { caller, channel: "rest", services }),
    ).rejects.toMatchObject({
      condition: "invalid_brief",
      options: { extensions: { errors: [{ field: "/colour", code: "unknown_field", message: "colour is not a brief field" }] } },
    });
    expect(requests).toEqual([]);
  });

  it("files nothing on a dry run", async () => {
    const { services, requests } = filing();
    const outcome = await perform(fileBriefOperation(schema), { ...person, dry_run: true }, { caller, channel: "mcp", services });
    expect(outcome.kind).toBe("dry_run");
    expect(requests).toEqual([]);
  });
});
