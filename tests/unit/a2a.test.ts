import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessAgent } from "../support/a2a-agent.ts";

/** The A2A handler in-process: routing, the brief's task states, and the protocol errors for malformed calls. */
let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(() => agent.close());

const send = (parts: unknown[], metadata?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, ...(metadata ? { metadata } : {}), ...extra } },
});
const call = async (body: unknown, headers?: Record<string, string>) => {
  const res = await agent.rpc(body, headers);
  return { res, body: (await res.json()) as { result?: any; error?: { code: number; message: string } } };
};

describe("routing", () => {
  it.each([
    ["what are your prices?", "offers"],
    ["Show me your case studies", "case-studies"],
    ["how do I book an intro call", "contact"],
  ])("routes %j to %s by keywords", async (text, skill) => {
    const { body } = await call(send([{ text }]));
    expect(body.result.message.parts[1].data).toEqual(agent.prebuilt[skill as "offers"]);
  });

  it("takes the skill from metadata, and a case study by id", async () => {
    const id = Object.keys(agent.prebuilt.case_study_details)[0]!;
    const { body } = await call(send([{ data: { id } }], { skillId: "case-studies" }));
    expect(body.result.message.parts[1].data).toEqual((agent.prebuilt.case_study_details as Record<string, unknown>)[id]);
  });

  it("answers an unknown skill with help and the index", async () => {
    const { body } = await call(send([{ data: { skill: "weather" } }]));
    expect(body.result.message.parts[0].text).toContain('no skill "weather"');
    expect(body.result.message.parts[1].data).toEqual(agent.prebuilt.index);
  });
});

describe("the brief", () => {
  it("asks for the missing fields, then files the brief when they come in the same task", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:read svc:brief")}` };
    const first = await call(send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }), auth);
    expect(first.body.result.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(first.body.result.task.status.message.parts[1].data.errors.map((e: { field: string }) => e.field)).toEqual([
      "/company_name",
      "/work_email",
    ]);
    const taskId = first.body.result.task.id;
    const second = await call(
      send([{ data: { company_name: `AE ${Date.now()}`, work_email: "ada@ae.example" } }], undefined, { taskId }),
      auth,
    );
    expect(second.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(second.body.result.task.artifacts[0].parts[0].data.lead_id).toMatch(/^lead_/);
    const got = await call({ jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: taskId } }, auth);
    expect(got.body.result.status.state).toBe("TASK_STATE_COMPLETED");
    // Another caller (here: anonymous) cannot see it.
    expect((await call({ jsonrpc: "2.0", id: 3, method: "GetTask", params: { id: taskId } })).body.error?.code).toBe(-32001);
    const cancel = await call({ jsonrpc: "2.0", id: 4, method: "CancelTask", params: { id: taskId } }, auth);
    expect(cancel.body.error?.code).toBe(-32002);
  });
});

describe("protocol errors, never a 5xx", () => {
  it.each([
    ["not JSON", "{", 200, -32700],
    ["a batch", [], 200, -32600],
    ["no jsonrpc member", { id: 1, method: "SendMessage", params: {} }, 200, -32600],
    ["an unknown method", { jsonrpc: "2.0", id: 1, method: "Teleport", params: {} }, 200, -32601],
    ["a file part", send([{ url: "https://example.com/x.pdf", mediaType: "application/pdf" }]), 200, -32005],
    ["no parts", send([]), 200, -32005],
    ["streaming", { ...send([{ text: "offers" }]), method: "SendStreamingMessage" }, 200, -32004],
    ["ListTasks", { jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }, 200, -32004],
    ["an oversized body", send([{ text: "x".repeat(70_000) }]), 413, -32600],
  ])("answers %s with a JSON-RPC error", async (_, body, status, code) => {
    const { res, body: answer } = await call(body);
    expect(res.status).toBe(status);
    expect(answer.error?.code).toBe(code);
  });

  it("refuses an unserved A2A-Version", async () => {
    expect((await call(send([{ text: "offers" }]), { "a2a-version": "2.0" })).body.error?.code).toBe(-32009);
  });
});
