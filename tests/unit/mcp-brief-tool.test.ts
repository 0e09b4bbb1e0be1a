import type { CallToolResult } from "@modelcontextprotocol/server";
import { describe, expect, it, vi } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import type { FilingRequest, FilingResult } from "../../src/briefs/pipeline.ts";
import { briefSchema, type Brief } from "../../src/briefs/schema.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { briefTool } from "../../src/mcp/brief-tool.ts";
import { asksByForm, confirmationKey } from "../../src/mcp/confirmation.ts";
import type { Decision } from "../../src/mcp/form-decisions.ts";
import type { Caller, Rounds, ToolResult } from "../../src/mcp/tool.ts";

/**
 * submit_project_brief on its own (src/mcp/brief-tool.ts over src/mcp/confirmation.ts): what it says for each outcome
 * of the one operation, and the person's confirmation form round by round, over services that file into a list and
 * rounds whose state is the payload they were minted with. tests/doors/mcp.test.ts drives the same through /mcp.
 */
const studio = "Kestrel Studio";
const responseTime = "We reply within one working day.";
const caller: Caller = { clientId: "client-1", grantId: "grant-1", address: "10.0.0.1", scopes: ["svc:brief"] };
const person = { full_name: "Ada Lovelace", company_name: "Analytical Engines", work_email: "ada@engines.example" };
const nextSteps = `A person at ${studio} will reply by e-mail to ${person.work_email}. ${responseTime}`;

/** Services that record each filing; `outcome` decides what a filing comes to (a new lead by default). */
function services(
  outcome: (brief: Brief, request: FilingRequest) => FilingResult | Refusal = (brief) => ({ kind: "filed", lead: leadOf(brief) }),
) {
  const filings: { brief: Brief; request: FilingRequest }[] = [];
  const filed = new Map<string, FilingResult>();
  return {
    filings,
    filed,
    schema: briefSchema(["launch-site"]),
    studio,
    responseTime,
    async file(brief: Brief, request: FilingRequest) {
      filings.push({ brief, request });
      const result = outcome(brief, request);
      if (result instanceof Refusal) throw result;
      if (request.idempotencyKey !== undefined)
        filed.set(request.idempotencyKey, { kind: "already_filed", lead: result.lead, reason: "idempotency_key" });
      return result;
    },
    async filedUnder(owner: string, key: string) {
      expect(owner).toBe(caller.grantId);
      return filed.get(key) ?? null;
    },
    // No key here is ever used for another brief.
    async checkKey() {},
  };
}
let leads = 0;
const leadOf = (brief: Brief): Lead => ({ id: `lead_${++leads}`, received_at: "2026-12-02T00:00:00.000Z", brief }) as Lead;

/** Rounds as /mcp hands them: the state is what `mint` was given; decisions stand once made. */
function roundsOf(decisions = new Map<string, Decision>()) {
  const minted: Record<string, unknown>[] = [];
  const at = (state: unknown, inputResponses?: Record<string, unknown>): Rounds => ({
    state,
    inputResponses,
    mint: async (payload) => (minted.push(payload as Record<string, unknown>), `state-${minted.length}`),
    decide: async (form, decision) => {
      if (!decisions.has(form)) decisions.set(form, decision);
      return decisions.get(form)!;
    },
  });
  return { minted, decisions, at };
}
const forms = { elicitation: {} };
const textOf = (result: ToolResult) => ((result as CallToolResult).content[0] as { text: string }).text;
const accept = (content: object) => ({ contact: { action: "accept", content } });

describe("submit_project_brief's listing", () => {
  it("tells a model what the tool does, needs and answers, and marks it a write", () => {
    const tool = briefTool(services());
    const title = "File a project brief";
    expect(tool).toMatchObject({ name: "submit_project_brief", title });
    expect(tool.annotations).toEqual({ title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    // Each sentence says one thing the model must know, and they read as sentences.
    for (const said of [
      `Files a project brief with ${studio}. This creates a real lead`,
      "confirmed their full name, company name and work e-mail; ask for them, never guess",
      "(elicitation, MCP 2026-07-28)",
      "site_size takes an id from get_offers",
      "Set dry_run to true to check a brief first",
      "the scope svc:brief: without one the server answers HTTP 401",
      "Not idempotent unless you pass idempotency_key",
      "Invalid fields come back as an error naming each field",
    ])
      expect(tool.description).toContain(said);
    expect(tool.description).not.toMatch(/\.[A-Z]|\s\s/);
    // The input as a client may send it (the time zone a string before it is read), with what the key is for.
    const input = tool.inputSchema.properties as Record<string, { type?: string; description?: string }>;
    expect(input.time_zone!.type).toBe("string");
    expect(input.idempotency_key!.description).toMatch(/^Optional\. .* the retry returns the original receipt instead of filing twice\.$/);
    // The output closed, as the tool answers it: a receipt or a dry run, the brief in both.
    const output = tool.outputSchema as unknown as {
      additionalProperties?: boolean;
      description?: string;
      properties: Record<string, any>;
    };
    expect(output.additionalProperties).toBe(false);
    expect(output.description).toMatch(/^A receipt for a filed brief \(lead_id, .+\), or the result of a dry run \(dry_run, .+\)\.$/);
    expect(output.properties.brief.description).toBe(
      "The brief as recorded (on a dry run: as it would be recorded), trimmed and normalised.",
    );
  });
});

describe("submit_project_brief's answers", () => {
  const run = (s: ReturnType<typeof services>, args: Record<string, unknown>, who: Caller | undefined = caller) =>
    briefTool(s).run(args, { caller: who, era: "legacy", clientCapabilities: undefined });

  it("files nothing without the svc:brief scope, and says so", async () => {
    const s = services();
    const result = (await run(s, person, { ...caller, scopes: ["svc:read"] })) as CallToolResult;
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe("Filing a brief needs an access token with the scope svc:brief. Nothing was filed.");
    expect(s.filings).toEqual([]);
  });

  it("says what a filing, a replay and a repeat came to, with the receipt", async () => {
    const replay = services((brief) => ({ kind: "already_filed", lead: leadOf(brief), reason: "idempotency_key" }));
    const repeat = services((brief) => ({ kind: "already_filed", lead: leadOf(brief), reason: "repeat" }));
    const filed = (await run(services(), person)) as CallToolResult;
    const { lead_id, received_at } = filed.structuredContent as { lead_id: string; received_at: string };
    expect(textOf(filed).split("\n")[0]).toBe(`Filed: lead ${lead_id}, received ${received_at}. ${nextSteps}`);
    const replayed = (await run(replay, { ...person, idempotency_key: "k-1" })) as CallToolResult;
    expect(textOf(replayed).split("\n")[0]).toBe(
      `Already filed with this idempotency_key: lead ${(replayed.structuredContent as { lead_id: string }).lead_id}. ${nextSteps}`,
    );
    expect(replay.filings[0]!.request).toMatchObject({ idempotencyKey: "k-1", channel: "mcp" });
    const repeated = (await run(repeat, person)) as CallToolResult;
    const id = (repeated.structuredContent as { lead_id: string }).lead_id;
    expect(textOf(repeated).split("\n")[0]).toBe(
      `You sent this very brief a few minutes ago: it was not filed again. Lead ${id}. ${nextSteps}`,
    );
  });

  it("names one invalid field, and several, with what to do and the errors as JSON", async () => {
    const s = services();
    const one = (await run(s, { ...person, work_email: "nope" })) as CallToolResult;
    const [head, json] = textOf(one).split("\n\n");
    expect(head).toMatch(
      /^The brief was NOT filed: 1 field is missing or invalid\. Fix it \(ask the person if you need to\) and call submit_project_brief again\.\n- \/work_email \(invalid_format\): .+$/,
    );
    expect(JSON.parse(json!)).toEqual({
      code: "invalid_brief",
      errors: [expect.objectContaining({ field: "/work_email", code: "invalid_format" })],
    });
    const two = (await run(s, { work_email: "ada@engines.example", company_name: "" })) as CallToolResult;
    expect(textOf(two)).toMatch(/^The brief was NOT filed: 2 fields are missing or invalid\. Fix them \(ask/);
    expect(s.filings).toEqual([]);
  });

  it("names a bad idempotency_key as the field it is", async () => {
    const result = (await run(services(), { ...person, idempotency_key: "" })) as CallToolResult;
    expect(textOf(result)).toMatch(
      /^The brief was NOT filed: 1 field is missing or invalid\. Fix it .+\n- \/idempotency_key \(invalid_format\): idempotency_key must be/,
    );
  });

  it("answers a refusal it cannot fix with the refusal's words and its data, and an outage as nothing recorded", async () => {
    const reused = (await run(
      services(() => new Refusal("idempotency_key_reused")),
      { ...person, idempotency_key: "k-2" },
    )) as CallToolResult;
    expect(reused.isError).toBe(true);
    const [words, data] = textOf(reused).split("\n\n");
    expect(words).toMatch(/^The brief was NOT filed: The Idempotency-Key was already used/);
    expect(JSON.parse(data!)).toMatchObject({ code: "idempotency_key_reused" });
    const down = (await run(
      services(() => new Refusal("service_unavailable")),
      person,
    )) as CallToolResult;
    expect(textOf(down)).toMatch(/^The brief was NOT recorded: The service cannot take this request right now/);
    // A brief refused as invalid without field errors is answered as a refusal too.
    const bare = (await run(
      services(() => new Refusal("invalid_brief", { detail: "No." })),
      person,
    )) as CallToolResult;
    expect(textOf(bare)).toMatch(/^The brief was NOT filed: No\. /);
  });
});

describe("the person's confirmation form (2026-07-28)", () => {
  const call = (s: ReturnType<typeof services>, args: Record<string, unknown>, rounds: Rounds) =>
    briefTool(s).run(args, { caller, era: "modern", clientCapabilities: forms, rounds });

  it("asks first, filled in from the arguments, and files nothing; a dry run is never asked about", async () => {
    const s = services();
    const r = roundsOf();
    const asked = (await call(s, person, r.at(undefined))) as {
      resultType: string;
      inputRequests: Record<string, any>;
      requestState: string;
    };
    expect(asked.resultType).toBe("input_required");
    expect(asked.requestState).toBe("state-1");
    const { message, requestedSchema } = asked.inputRequests.contact.params;
    expect(message).toBe(
      `Send this project brief to ${studio}? A person at the studio will read it and e-mail you at the work e-mail below. Check your name, company and work e-mail, and correct them if needed. Decline to send nothing.`,
    );
    expect(requestedSchema.required).toEqual(["full_name", "company_name", "work_email"]);
    expect(requestedSchema.properties.work_email).toMatchObject({
      type: "string",
      format: "email",
      default: person.work_email,
      maxLength: 254,
    });
    expect(requestedSchema.properties.full_name).toMatchObject({
      type: "string",
      minLength: 1,
      default: person.full_name,
      title: "Your name",
    });
    expect(requestedSchema.properties.work_email.description).toBe("We reply to this address.");
    expect(requestedSchema.properties.full_name).not.toHaveProperty("description");
    expect(r.minted).toEqual([{ call: expect.any(String), round: 1, form: expect.any(String) }]);
    expect(s.filings).toEqual([]);
    const dry = (await call(s, { ...person, dry_run: true }, r.at(undefined))) as CallToolResult;
    expect(dry.structuredContent).toMatchObject({ dry_run: true, valid: true });
  });

  it("answers an invalid brief at once, before anybody is asked, with or without its own key", async () => {
    for (const key of [{}, { idempotency_key: "k-5" }]) {
      const r = roundsOf();
      const result = (await call(services(), { ...person, work_email: "nope", ...key }, r.at(undefined))) as CallToolResult;
      expect(textOf(result)).toMatch(/^The brief was NOT filed: 1 field is missing/);
      expect(r.minted).toEqual([]);
    }
  });

  it("asks for a form both ways a client can declare it shows forms", () => {
    expect(asksByForm({ elicitation: {} })).toBe(true);
    expect(asksByForm({ elicitation: { form: {}, url: {} } })).toBe(true);
    expect(asksByForm({ elicitation: { url: {} } })).toBe(false);
    expect(asksByForm({})).toBe(false);
  });

  it("files what the person accepted, once, under the form's name, and says they confirmed it", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    const typed = { ...person, full_name: "Ada King" };
    const filed = (await call(s, person, r.at(state, accept(typed)))) as CallToolResult;
    const { lead_id, received_at } = filed.structuredContent as { lead_id: string; received_at: string };
    expect(textOf(filed).split("\n")[0]).toBe(
      `Filed: lead ${lead_id}, received ${received_at}. The person confirmed their name, company and work e-mail in your client's form. ${nextSteps}`,
    );
    expect(s.filings).toHaveLength(1);
    expect(s.filings[0]!.brief.full_name).toBe("Ada King");
    expect(s.filings[0]!.request.idempotencyKey).toBe(confirmationKey(state.form as string));
    expect(r.decisions.get(state.form as string)).toBe("accept");
    // The same answer again is the brief filed, as that form's: nothing more is filed.
    const again = (await call(s, person, r.at(state, accept(typed)))) as CallToolResult;
    expect(textOf(again).split("\n")[0]).toBe(
      `This form was already answered and its brief filed: lead ${lead_id}; a later answer to it changes nothing. The person confirmed their name, company and work e-mail in your client's form. ${nextSteps}`,
    );
    expect(s.filings).toHaveLength(1);
  });

  it("says an accepted form whose brief another answer filed under it was not filed again", async () => {
    const s = services(() => new Refusal("idempotency_key_reused"));
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const result = (await call(s, person, r.at(r.minted[0]!, accept(person)))) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "This form was already answered and its brief filed; an answer with other values was NOT filed. To send another brief, call submit_project_brief again without requestState, and the person is asked again.",
    );
  });

  it("words a replay its accepted form's write comes to by what made it one: the form's key, or the call's", async () => {
    const replayed = (brief: Brief) => ({ kind: "already_filed" as const, lead: leadOf(brief), reason: "idempotency_key" as const });
    for (const [args, words] of [
      [person, /^This form was already answered and its brief filed: lead lead_\d+; a later answer to it changes nothing\. /],
      [{ ...person, idempotency_key: "k-3" }, /^Already filed with this idempotency_key: lead lead_\d+\. The person confirmed/],
    ] as const) {
      const s = services(replayed);
      const r = roundsOf();
      await call(s, args, r.at(undefined));
      expect(textOf(await call(s, args, r.at(r.minted[0]!, accept(person))))).toMatch(words);
    }
  });

  it("answers a dry run refused as an outage at once, asking nobody", async () => {
    const s = { ...services(), checkKey: async () => Promise.reject(new Refusal("service_unavailable")) };
    const r = roundsOf();
    const result = (await call(s, { ...person, idempotency_key: "k-4" }, r.at(undefined))) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The brief was NOT recorded: /);
    expect(r.minted).toEqual([]);
  });

  it("says a call's own idempotency_key used for another brief is refused as the key, not as the form", async () => {
    const s = services(() => new Refusal("idempotency_key_reused"));
    const r = roundsOf();
    const args = { ...person, idempotency_key: "k-9" };
    await call(s, args, r.at(undefined));
    const result = (await call(s, args, r.at(r.minted[0]!, accept(person)))) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The brief was NOT filed: The Idempotency-Key was already used/);
    expect(s.filings.map((f) => f.request.idempotencyKey)).toEqual(["k-9"]);
  });

  it.each([
    ["decline", "The person declined the confirmation form, so the brief was NOT filed"],
    ["cancel", "The person closed the confirmation form without answering, so the brief was NOT filed"],
  ])("files nothing when the person answers %s, and that decision stands", async (action, words) => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    const result = (await call(s, person, r.at(state, { contact: { action } }))) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(new RegExp(`^${words}`));
    expect(r.decisions.get(state.form as string)).toBe("decline");
    const later = (await call(s, person, r.at(state, accept(person)))) as CallToolResult;
    expect(textOf(later)).toMatch(
      /^The person declined this form before, so the brief was NOT filed, and a later answer to the same form files nothing\./,
    );
    expect(s.filings).toEqual([]);
  });

  it("answers a decline after an accept with the brief that accept filed", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    const filed = (await call(s, person, r.at(state, accept(person)))) as CallToolResult;
    const declined = (await call(s, person, r.at(state, { contact: { action: "decline" } }))) as CallToolResult;
    expect(declined.isError).toBeFalsy();
    expect((declined.structuredContent as { lead_id: string }).lead_id).toBe((filed.structuredContent as { lead_id: string }).lead_id);
  });

  it("answers a decline while the accept before it is still filing with that brief, once it is filed", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    // The accept stands, and its brief shows up under the form's key only on the third look.
    r.decisions.set(state.form as string, "accept");
    const lead = leadOf(person as Brief);
    let looks = 0;
    s.filedUnder = async () => (++looks >= 3 ? { kind: "already_filed", lead, reason: "idempotency_key" } : null);
    const declined = (await call(s, person, r.at(state, { contact: { action: "decline" } }))) as CallToolResult;
    expect(declined.isError).toBeFalsy();
    expect((declined.structuredContent as { lead_id: string }).lead_id).toBe(lead.id);
    expect(textOf(declined)).toMatch(/^This form was already answered and its brief filed: lead /);
  });

  it("says an accepted form whose brief never shows up changes nothing, after waiting six seconds for it", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    r.decisions.set(state.form as string, "accept");
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    try {
      let answered = false;
      const declined = call(s, person, r.at(state, { contact: { action: "decline" } })).finally(() => (answered = true));
      // The clock moves only from one of its looks to the next; the real work runs in between, however long it takes
      // (a loaded machine's thread pool, which Web Crypto uses, can take longer than any count of turns).
      const from = Date.now();
      while (!answered) {
        await new Promise((resolve) => setImmediate(resolve));
        if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
      }
      expect(Date.now() - from).toBeGreaterThan(5_000);
      expect(Date.now() - from).toBeLessThanOrEqual(6_000);
      expect(textOf(await declined)).toBe(
        "The person had already accepted this form, and the answer to that acceptance says what was done; a later answer to the same form changes nothing.",
      );
      expect(s.filings).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks again, in a new round of the same form, with what was sent and typed, when the answer is unusable", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    const again = (await call(s, person, r.at(state, accept({ full_name: "Ada King" })))) as {
      resultType: string;
      inputRequests: Record<string, any>;
    };
    expect(again.resultType).toBe("input_required");
    expect(r.minted[1]).toEqual({ call: state.call, round: 2, form: state.form });
    const { properties } = again.inputRequests.contact.params.requestedSchema;
    expect([properties.full_name.default, properties.company_name.default, properties.work_email.default]).toEqual([
      "Ada King",
      person.company_name,
      person.work_email,
    ]);
    expect(s.filings).toEqual([]);
  });

  it("asks again naming the problem, filled in with what the person typed", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    const state = r.minted[0]!;
    const again = (await call(s, person, r.at(state, accept({ ...person, work_email: "nope" })))) as { inputRequests: Record<string, any> };
    const { message, requestedSchema } = again.inputRequests.contact.params;
    expect(message).toMatch(/ Please fix: work_email .+\.$/);
    expect(requestedSchema.properties.work_email.default).toBe("nope");
    // Two problems, each named, one after the other.
    const twice = (await call(s, person, r.at(state, accept({ ...person, work_email: "nope", full_name: "" })))) as {
      inputRequests: Record<string, any>;
    };
    expect(twice.inputRequests.contact.params.message).toMatch(/ Please fix: [^;]+; [^;]+\.$/);
    expect(s.filings).toEqual([]);
  });

  it("refuses a state minted for other arguments", async () => {
    const s = services();
    const r = roundsOf();
    await call(s, person, r.at(undefined));
    await expect(call(s, { ...person, full_name: "Someone Else" }, r.at(r.minted[0]!, accept(person)))).rejects.toThrow(
      "Invalid or expired requestState",
    );
    expect(s.filings).toEqual([]);
  });

  it("files straight away for a client that shows no forms", async () => {
    const s = services();
    const result = (await briefTool(s).run(person, {
      caller,
      era: "modern",
      clientCapabilities: { elicitation: { url: {} } },
      rounds: roundsOf().at(undefined),
    })) as CallToolResult;
    expect(textOf(result)).toMatch(/^Filed: lead /);
    expect(textOf(result)).not.toContain("The person confirmed");
  });
});
