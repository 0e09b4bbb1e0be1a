import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bookingSkills } from "../../src/a2a/booking-skills.ts";
import { bookingSkillIds } from "../../src/booking/names.ts";
import { readSkills } from "../../src/a2a/skills.ts";
import { absolute, caseStudyResourcePath, resourcePaths } from "../../src/paths.ts";
import { inProcessAgent } from "../support/a2a-agent.ts";

/**
 * What the A2A executor says in words (src/a2a/executor.ts), in-process: its help, its reads, a case study it has and
 * one it does not, a write without the scope, a brief filed, filed again, dry run and refused, an outage of the brief
 * services, and a task waiting for input that is canceled.
 */
let agent: Awaited<ReturnType<typeof inProcessAgent>>;
let booking: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  [agent, booking] = await Promise.all([inProcessAgent(), inProcessAgent({ bare: true, agentBooking: true })]);
});
afterAll(() => Promise.all([agent.close(), booking.close()]));

const send = (parts: unknown[], metadata?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, ...(metadata ? { metadata } : {}), ...extra } },
});
const call = async (to: typeof agent, body: unknown, headers?: Record<string, string>) =>
  ((await (await to.rpc(body, headers)).json()) as { result?: any; error?: { code: number } }).result;
const listed = (skills: { id: string; name: string }[]) => skills.map((s) => `${s.id} (${s.name.toLowerCase()})`).join(", ");
const how = 'Name one in message.metadata.skillId or as {"skill": "<id>"} in a data part. The data part here is the API index.';

describe("help", () => {
  it("lists the reads and the brief where booking is not offered", async () => {
    const result = await call(agent, send([{ data: { skill: "weather" } }]));
    expect(result.message.parts[0].text).toBe(
      `There is no skill "weather". Skills: ${listed(readSkills)}, and svc-project-brief (file a project brief; needs a token). ${how}`,
    );
    expect(result.message.parts[1].data).toEqual(agent.prebuilt.index);
  });

  it("says it could not tell which facts are wanted when a message names none", async () => {
    const result = await call(agent, send([{ text: "hello" }], undefined, { contextId: "ctx-hello" }));
    expect(result.message.parts[0].text).toMatch(/^I could not tell which facts you want\. Skills: company \(company facts\), /);
    expect(result.message.contextId).toBe("ctx-hello");
  });

  it("adds free times and the booking writes where booking is offered", async () => {
    // Built here, not before the tests: what the executor decides once, when it is made, is this test's to check.
    const booking = await inProcessAgent({ bare: true, agentBooking: true });
    const result = await call(booking, send([{ data: { skill: "weather" } }]));
    await booking.close();
    const reads = [...readSkills, ...bookingSkills.filter((s) => !s.scope)];
    expect(result.message.parts[0].text).toBe(
      `There is no skill "weather". Skills: ${listed(reads)}, and svc-project-brief (file a project brief), ${bookingSkillIds.book} and ${bookingSkillIds.cancel} (book or cancel the intro call), each needing a token. ${how}`,
    );
  });
});

describe("reads", () => {
  it("says which resource a read answers with, as its GET", async () => {
    for (const skill of readSkills) {
      const result = await call(agent, send([{ data: { skill: skill.id } }]));
      expect(result.message.parts[0].text).toBe(
        `${agent.prebuilt.site.name}: ${skill.name.toLowerCase()}, the same JSON as GET ${absolute(agent.prebuilt.site.base_url, resourcePaths[skill.id])}.`,
      );
      expect(result.message.parts[1].data).toEqual(agent.prebuilt[skill.id]);
    }
  });

  it("answers a case study there is with its JSON, as its GET", async () => {
    const [id, study] = Object.entries(agent.prebuilt.case_study_details)[0]!;
    const result = await call(agent, send([{ data: { id } }], { skillId: "case-studies" }));
    expect(result.message.parts[0].text).toBe(
      `${agent.prebuilt.site.name}: case study ${id}, as GET ${absolute(agent.prebuilt.site.base_url, caseStudyResourcePath(id))}.`,
    );
    expect(result.message.parts[1].data).toEqual(study);
  });

  it("names the case studies there are when asked for one there is not", async () => {
    const result = await call(agent, send([{ data: { id: "no-such-study" } }], { skillId: "case-studies" }));
    const ids = Object.keys(agent.prebuilt.case_study_details).join(", ");
    expect(result.message.parts[0].text).toBe(`There is no case study "no-such-study". These exist: ${ids}. The data part lists them.`);
    expect(result.message.parts[1].data).toEqual(agent.prebuilt["case-studies"]);
  });
});

describe("writes", () => {
  it("says a write needs the scope, for the brief and for booking, where no gate checked it", async () => {
    const brief = await call(booking, send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }));
    expect(brief.message.parts[0].text).toBe("Filing a brief needs an access token with the scope svc:brief. Nothing was filed.");
    const book = await call(booking, send([{ data: { skill: bookingSkillIds.book } }]));
    expect(book.message.parts[0].text).toBe(
      "Booking or cancelling the intro call needs an access token with the scope svc:brief. Nothing was booked or cancelled.",
    );
  });

  it("says a brief was filed, and that the same brief again was already received, as the same lead", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:read svc:brief")}` };
    const brief = { full_name: "Ada", company_name: `AE ${crypto.randomUUID()}`, work_email: "ada@ae.example" };
    const request = send([{ data: brief }], { skillId: "svc-project-brief" });
    const first = (await call(agent, request, auth)).task;
    const receipt = first.artifacts[0].parts[0].data;
    // The receipt is the task's one artifact, its name and parts only; the task's history starts with the message sent.
    expect(first.artifacts).toEqual([
      {
        artifactId: expect.any(String),
        name: "receipt",
        parts: [expect.objectContaining({ data: receipt }), expect.objectContaining({ text: expect.any(String) })],
      },
    ]);
    expect(first.history[0].messageId).toBe(request.params.message.messageId);
    // The studio's e-mail says the lead came through A2A.
    await expect.poll(() => agent.sent).toContainEqual(expect.objectContaining({ metadata: { lead_id: receipt.lead_id, channel: "a2a" } }));
    expect(first.status.message.parts[0].text).toBe(`Filed as lead ${receipt.lead_id}. ${receipt.next_steps}`);
    const again = (await call(agent, send([{ data: brief }], { skillId: "svc-project-brief" }), auth)).task;
    expect(again.status.message.parts[0].text).toBe(`Already received as lead ${receipt.lead_id}. ${receipt.next_steps}`);
  });

  it("answers a brief's dry run with its verdict as the dry-run artifact, and files nothing", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:read svc:brief")}` };
    const brief = { full_name: "Ada", company_name: `AE ${crypto.randomUUID()}`, work_email: "ada@ae.example", dry_run: true };
    const sent = agent.sent.length;
    const task = (await call(agent, send([{ data: brief }], { skillId: "svc-project-brief" }), auth)).task;
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0]).toMatchObject({ name: "dry-run", parts: [{ data: { dry_run: true, valid: true } }, expect.anything()] });
    expect(task.status.message.parts[0].text).toBe(task.artifacts[0].parts[0].data.message);
    expect(agent.sent.length).toBe(sent);
  });

  it("names an idempotency_key in a brief's data part as no brief field, and files nothing", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:read svc:brief")}` };
    const brief = { full_name: "Ada", company_name: `AE ${crypto.randomUUID()}`, work_email: "ada@ae.example", idempotency_key: "k-1" };
    const task = (await call(agent, send([{ data: brief }], { skillId: "svc-project-brief" }), auth)).task;
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(task.status.message.parts[1].data).toEqual({
      code: "invalid_brief",
      errors: [{ field: "/idempotency_key", code: "unknown_field", message: "idempotency_key is not a brief field" }],
    });
    // What the task keeps for the reply is under the brief's name: the brief's valid fields.
    expect(task.metadata).toEqual({
      skill: "svc-project-brief",
      brief_fields: { full_name: "Ada", company_name: brief.company_name, work_email: brief.work_email },
    });
  });

  it("fails a brief's task as an outage, with when to retry, when the brief services cannot be built", async () => {
    const broken = await inProcessAgent({
      briefs: () => {
        throw new Error("the lead store is not configured");
      },
    });
    const auth = { authorization: `Bearer ${await broken.token("svc:read svc:brief")}` };
    const brief = { full_name: "Ada", company_name: "AE", work_email: "ada@ae.example" };
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const task = (await call(broken, send([{ data: brief }], { skillId: "svc-project-brief" }), auth)).task;
    await broken.close();
    // Logged, named for where it failed; answered as an outage, never with the error's words.
    expect(log.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringMatching(/^A2A brief failed: Error: the lead store is not configured/),
    ]);
    log.mockRestore();
    expect(JSON.stringify(task)).not.toContain("lead store");
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    expect(task.status.message.parts[1].data).toEqual({ code: "service_unavailable", retry_after: 30 });
    expect(task.status.message.parts[0].text).toMatch(/ Retry in 30 seconds\.$/);
  });

  it("cancels a task waiting for input, and keeps it canceled", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:read svc:brief")}` };
    const waiting = (await call(agent, send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }), auth)).task;
    expect(waiting.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const canceled = await call(agent, { jsonrpc: "2.0", id: 2, method: "CancelTask", params: { id: waiting.id } }, auth);
    expect(canceled).toMatchObject({ id: waiting.id, contextId: waiting.contextId, status: { state: "TASK_STATE_CANCELED" } });
    const got = await call(agent, { jsonrpc: "2.0", id: 3, method: "GetTask", params: { id: waiting.id } }, auth);
    expect(got.status.state).toBe("TASK_STATE_CANCELED");
  });
});
