import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentBase, inProcessAgent } from "../support/a2a-agent.ts";
import { policies } from "../../src/limits/policies.ts";
import { listPageSize } from "../../src/a2a/constants.ts";
import { chooseSkill, type MessageView } from "../../src/a2a/route.ts";

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

describe("routing to the intro call's skills", () => {
  const view = (parts: Partial<MessageView>): MessageView => ({ texts: [], data: [], otherParts: 0, ...parts });
  const offered = { booking: true };
  const fields = { full_name: "Ada", work_email: "ada@ae.example", start: "2030-01-07T09:00:00Z", time_zone: "UTC" };

  it("takes booking and cancelling by name only, and only where the card offers them", () => {
    const book = "svc-book-intro-call";
    expect(chooseSkill(view({ data: [{ skill: book, ...fields }] }), offered)).toEqual({ kind: "task", skill: book });
    expect(chooseSkill(view({ skillId: "svc-cancel-intro-call", data: [{ booking_id: "bk_x" }] }), offered)).toEqual({
      kind: "task",
      skill: "svc-cancel-intro-call",
    });
    // Unnamed, a booking's fields are read as a brief's, as any data part with a brief's field.
    expect(chooseSkill(view({ data: [fields] }), offered)).toEqual({ kind: "task", skill: "svc-project-brief" });
    // A reply in a task continues the task's own skill, whichever it is.
    expect(chooseSkill(view({ taskId: "t-1", data: [{ start: fields.start }] }), offered)).toEqual({ kind: "task" });
    for (const skill of [book, "svc-cancel-intro-call", "free-times"])
      expect(chooseSkill(view({ data: [{ skill, ...fields }] }), { booking: false })).toEqual({ kind: "help", unknownSkill: skill });
  });

  it.each([
    ["Which times are free next week?", { kind: "free-times" }],
    ["When are you available for a call?", { kind: "free-times" }],
    ["How do I book an intro call?", { kind: "read", skill: "contact" }],
    ["What services are available?", { kind: "read", skill: "company" }],
  ])("routes %j by keywords where booking is offered", (text, route) => {
    expect(chooseSkill(view({ texts: [text] }), offered)).toEqual(route);
  });

  it("never routes words to free times where booking is not offered", () => {
    expect(chooseSkill(view({ texts: ["Which times are free next week?"] }), { booking: false })).toEqual({ kind: "help" });
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

describe("tasks are the caller's own", () => {
  const rpcOf = (method: string, params: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 9, method, params });

  it("asks an anonymous ListTasks for a token: 401 with the challenge, and a JSON-RPC error", async () => {
    const { res, body } = await call(rpcOf("ListTasks", {}));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${agentBase}/.well-known/oauth-protected-resource/a2a/v1"`);
    expect(body.error?.code).toBe(-32091);
  });

  it("lists a client's own tasks only, and answers another client's task exactly as an unknown one", async () => {
    const owner = { authorization: `Bearer ${await agent.token("svc:brief", "owner-client")}` };
    const other = { authorization: `Bearer ${await agent.token("svc:brief", "other-client")}` };
    const made = await call(send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }), owner);
    const taskId = made.body.result.task.id as string;

    const listed = await call(rpcOf("ListTasks", {}), owner);
    expect(listed.body.result.tasks.map((t: { id: string }) => t.id)).toEqual([taskId]);
    expect(listed.body.result).toMatchObject({ nextPageToken: "", pageSize: listPageSize.default, totalSize: 1 });
    expect(listed.body.result.tasks[0]).not.toHaveProperty("artifacts");
    const none = { tasks: [], nextPageToken: "", pageSize: listPageSize.default, totalSize: 0 };
    expect((await call(rpcOf("ListTasks", {}), other)).body.result).toEqual(none);
    // The largest page is served.
    expect((await call(rpcOf("ListTasks", { pageSize: listPageSize.max }), owner)).body.result.tasks).toHaveLength(1);

    const unknown = crypto.randomUUID();
    for (const [method, params] of [
      ["GetTask", (id: string) => ({ id })],
      ["CancelTask", (id: string) => ({ id })],
      ["SubscribeToTask", (id: string) => ({ id })],
      ["GetTaskPushNotificationConfig", (id: string) => ({ taskId: id, id: "c" })],
      ["ListTaskPushNotificationConfigs", (id: string) => ({ taskId: id })],
      ["SendMessage", (id: string) => send([{ data: { company_name: "AE" } }], undefined, { taskId: id }).params],
    ] as const) {
      const theirs = await call(rpcOf(method, params(taskId)), other);
      const none = await call(rpcOf(method, params(unknown)), other);
      expect(theirs.res.status, method).toBe(none.res.status);
      expect(theirs.body.error?.code, method).toBe(none.body.error?.code);
      expect(theirs.body.error?.message.replace(taskId, "<id>"), method).toBe(none.body.error?.message.replace(unknown, "<id>"));
    }
    // The owner's task is untouched by the other client's attempts.
    expect((await call(rpcOf("GetTask", { id: taskId }), owner)).body.result.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
  });

  it.each([
    ["a page token it did not issue", { pageToken: "bm90LWEtY3Vyc29y" }],
    ["a page size of 0", { pageSize: 0 }],
    ["a page size above the maximum", { pageSize: listPageSize.max + 1 }],
    ["a page size that is not a number", { pageSize: "ten" }],
    ["a negative historyLength", { historyLength: -1 }],
    ["an unknown status", { status: "TASK_STATE_DREAMING" }],
    ["a statusTimestampAfter that is not a time", { statusTimestampAfter: "yesterday" }],
  ])("refuses ListTasks with %s as InvalidParams", async (_, params) => {
    const auth = { authorization: `Bearer ${await agent.token("svc:read")}` };
    const { res, body } = await call(rpcOf("ListTasks", params), auth);
    expect(res.status).toBe(200);
    expect(body.error?.code).toBe(-32602);
  });
});

describe("a brief needs svc:brief, in every shape", () => {
  const brief = () => ({ full_name: "Ada", company_name: `AE ${crypto.randomUUID()}`, work_email: "ada@ae.example" });

  it("reads a 0.3 data part as data even when it also carries text: the gate asks for svc:brief, nothing is filed", async () => {
    const sent = agent.sent.length;
    const auth = { authorization: `Bearer ${await agent.token("svc:read")}`, "a2a-version": "0.3" };
    const part = { kind: "data", text: "offers", data: brief() };
    const legacy = {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: { message: { kind: "message", messageId: "m", role: "user", parts: [part] } },
    };
    const { res, body } = await call(legacy, auth);
    expect(res.status).toBe(403);
    expect(body.error?.code).toBe(-32092);
    expect(agent.sent.length).toBe(sent);
  });

  it("reads a 1.0 part with both text and data as text, as the SDK decodes it: a read, nothing filed", async () => {
    const sent = agent.sent.length;
    const auth = { authorization: `Bearer ${await agent.token("svc:read")}` };
    const { body } = await call(send([{ text: "offers", data: brief() }]), auth);
    expect(body.result.message.parts[1].data).toEqual(agent.prebuilt.offers);
    expect(agent.sent.length).toBe(sent);
  });

  it("is checked by the executor itself: without the HTTP gate a brief is refused and nothing is stored", async () => {
    const bare = await inProcessAgent({ bare: true });
    try {
      const { body } = await (async () => {
        const res = await bare.rpc(send([{ data: brief() }], { skillId: "svc-project-brief" }));
        return { body: (await res.json()) as { result?: any } };
      })();
      expect(body.result.message.parts[0].text).toContain("needs an access token with the scope svc:brief");
      expect(bare.sent).toHaveLength(0);
      expect(await bare.redis.keys("a2a:task:*")).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe("bounded storage", () => {
  it("keeps at most 4 KiB of a task's history, for at most 24 hours, and carries only valid brief fields", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:brief")}` };
    const big = { full_name: "Ada", work_email: "nope", notes: "x".repeat(38_000), message: "y".repeat(20_000) };
    const { body } = await call(send([{ data: big }], { skillId: "svc-project-brief" }), auth);
    expect(body.result.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const key = `a2a:task:${body.result.task.id}`;
    const stored = JSON.stringify(await agent.redis.get(key));
    expect(stored.length).toBeLessThan(6 * 1024);
    expect(stored).toContain('"brief_fields":{"full_name":"Ada"}');
    const ttl = await agent.redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
  });

  it("counts every brief message, valid or not, against the grant's a2a-briefs quota", async () => {
    const auth = { authorization: `Bearer ${await agent.token("svc:brief")}` };
    await agent.redis.del(...(await agent.redis.keys("rl:a2a-briefs:*")), "none");
    const first = await call(send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }), auth);
    // Each answer reports every quota it counted: the door's for the grant and its address's ceiling, then the grant's brief
    // messages and their address's ceiling.
    expect(first.res.headers.get("ratelimit-policy")).toBe(
      `"a2a";q=${policies.a2a.quota};w=60, "grants-per-address";q=3000;w=60, "a2a-briefs";q=30;w=3600, "a2a-briefs-per-address";q=300;w=3600`,
    );
    expect(first.res.headers.get("ratelimit")).toMatch(/"a2a-briefs";r=29;t=\d+/);
    for (let i = 1; i < 30; i++) await call(send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }), auth);
    const { res, body } = await call(send([{ data: { full_name: "Ada" } }], { skillId: "svc-project-brief" }), auth);
    expect(res.status).toBe(429);
    expect(res.headers.get("ratelimit-policy")).toContain('"a2a-briefs";q=30;w=3600');
    expect(body.error?.code).toBe(-32090);
    // Reads are not counted.
    expect((await call(send([{ text: "offers" }]), auth)).res.status).toBe(200);
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
    ["an oversized body", send([{ text: "x".repeat(70_000) }]), 413, -32094],
  ])("answers %s with a JSON-RPC error", async (_, body, status, code) => {
    const { res, body: answer } = await call(body);
    expect(res.status).toBe(status);
    expect(answer.error?.code).toBe(code);
  });

  it("refuses an unserved A2A-Version", async () => {
    expect((await call(send([{ text: "offers" }]), { "a2a-version": "2.0" })).body.error?.code).toBe(-32009);
  });
});
