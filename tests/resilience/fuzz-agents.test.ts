import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { briefToolName } from "../../src/mcp/brief-tool.ts";
import { readTools } from "../../src/mcp/read-tools.ts";

import { briefBody } from "./support/briefs.ts";
import { redisDatabase } from "./support/databases.ts";
import { prebuilt, startDeployment, type Deployment } from "../support/deployment.ts";
import { defined, fuzz, headerValue, jsonValue, mutated, text, toWire, wire } from "./support/fuzz.ts";
import { checkJsonRpc, engineText } from "./support/protocols.ts";
import { resourcePaths } from "../../src/paths.ts";

const tools = [...readTools(await prebuilt()).map((t) => t.name), briefToolName];

/** The agent surfaces, /mcp and /a2a/v1, under generated JSON-RPC: envelopes, batches, methods and mutated params. */
let d: Deployment;
/** Tokens of 50 grants that may file briefs and 50 that may only read: each grant has its own quota, and no case hits it. */
let tokens: string[];
const grants = 50;
beforeAll(async () => {
  d = await startDeployment(redisDatabase["fuzz-agents"]);
  tokens = await Promise.all(Array.from({ length: 2 * grants }, (_, i) => d.token(i < grants ? "svc:read svc:brief" : "svc:read")));
});
afterAll(async () => {
  await d.settle();
  await d.close();
});

const id = fc.oneof({ weight: 5, arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 10 })) }, { weight: 1, arbitrary: jsonValue });
const authorization = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.nat({ max: 2 * grants - 1 }).map((i) => `Bearer ${tokens[i]}`) },
  { weight: 1, arbitrary: headerValue.map((s) => `Bearer ${s}`) },
  { weight: 1, arbitrary: headerValue },
);

/** A JSON-RPC envelope around `call`, with one of its parts mutated now and then. */
const envelope = (call: fc.Arbitrary<{ method: unknown; params?: unknown }>) =>
  fc
    .tuple(call, id, fc.constantFrom("ok", "ok", "ok", "ok", "no-id", "bad-version", "no-params", "extra"), jsonValue)
    .map(([{ method, params }, requestId, how, value]) => {
      const message: Record<string, unknown> = { jsonrpc: how === "bad-version" ? value : "2.0", method };
      if (how !== "no-id") message.id = requestId;
      if (how !== "no-params" && params !== undefined) message.params = params;
      if (how === "extra") message.extra = value;
      return message;
    });

describe("fuzzing MCP", () => {
  const toolNames = [...tools, "nope"];
  const resourceUri = fc.oneof(
    fc.constantFrom(...Object.values(resourcePaths)).map((p) => `https://studio.example${p}`),
    fc
      .tuple(fc.constantFrom(...Object.values(resourcePaths)), fc.string({ maxLength: 10 }))
      .map(([p, s]) => `https://studio.example${p}/${s}`),
    text,
  );
  const call = fc.oneof(
    fc.record({
      method: fc.constant("initialize"),
      params: mutated({
        protocolVersion: fc.constantFrom("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01"),
        capabilities: fc.constant({}),
        clientInfo: fc.constant({ name: "fuzz", version: "1" }),
      }),
    }),
    fc.record({
      method: fc.constantFrom(
        "ping",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "notifications/initialized",
      ),
      params: fc.option(fc.constant({}), { nil: undefined }),
    }),
    fc.record({
      method: fc.constant("tools/call"),
      params: mutated({
        name: fc.constantFrom(...toolNames),
        arguments: fc.oneof(briefBody, mutated({ id: fc.oneof(fc.constant("x"), text) }), jsonValue),
      }),
    }),
    fc.record({ method: fc.constant("resources/read"), params: mutated({ uri: resourceUri }) }),
    fc.record({
      method: fc.constant("prompts/get"),
      params: mutated({
        name: fc.constantFrom("prepare_project_brief", "summarize_studio", "nope"),
        arguments: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), jsonValue), { maxKeys: 3 }),
      }),
    }),
    fc.record({ method: fc.oneof(fc.string({ maxLength: 20 }), jsonValue), params: fc.option(jsonValue, { nil: undefined }) }),
  );
  const body = fc.oneof({ weight: 6, arbitrary: envelope(call) }, { weight: 1, arbitrary: fc.array(envelope(call), { maxLength: 3 }) });
  const headers = fc.record(
    {
      accept: fc.constantFrom("application/json, text/event-stream", "application/json", "text/event-stream", "*/*", "text/html"),
      "mcp-protocol-version": fc.oneof(fc.constantFrom("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"), headerValue),
      origin: fc.constantFrom("https://studio.example", "https://evil.example", "null"),
      "content-type": fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-8"),
      authorization,
    },
    { requiredKeys: ["accept", "content-type"] },
  );
  // Mostly what a real client sends, so most cases get past the HTTP layer into the SDK and the tools (2025-03-26 now
  // and then, the one revision whose batches are served).
  const mcpHeaders = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        accept: fc.constant("application/json, text/event-stream"),
        "content-type": fc.constant("application/json"),
        "mcp-protocol-version": fc.constantFrom("2025-11-25", "2025-11-25", "2025-03-26"),
        authorization,
      }),
    },
    { weight: 1, arbitrary: headers },
  );

  it("POST /mcp: envelopes, batches, tools/call with mutated arguments, resources/read, prompts/get", async () => {
    const outcomes = { result: 0, error: 0, none: 0 };
    const cases = await fuzz(
      "POST /mcp",
      fc.tuple(body, fc.nat({ max: 19 }), wire(jsonValue), mcpHeaders),
      async ([message, pick, raw, h]) => {
        // One request in twenty carries a body that is not a JSON-RPC message at all.
        const sent = pick === 0 ? raw : toWire(message);
        outcomes[await checkJsonRpc(await d.mcp({ method: "POST", headers: defined(h), body: sent }), pick === 0 ? undefined : message)] +=
          1;
      },
    );
    // The cases reached the tools, resources and prompts, not only the HTTP layer's refusals. About one in eight does (a
    // batch is served from 2025-03-26 clients only, and most mutated arguments are refused): one in 25 is the floor, which
    // a run of 500 misses with odds under one in a million.
    expect(outcomes.result).toBeGreaterThan(cases / 25);
  });

  // The same calls as a 2026-07-28 client sends them: the `_meta` envelope in params (mutated now and then) and the
  // standard headers, mostly agreeing with the body.
  const validMeta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const modernMeta = fc.oneof(
    { weight: 3, arbitrary: fc.constant(validMeta) },
    {
      weight: 1,
      arbitrary: mutated({
        "io.modelcontextprotocol/protocolVersion": fc.constantFrom("2026-07-28", "2027-01-01", "2025-11-25"),
        "io.modelcontextprotocol/clientCapabilities": fc.constantFrom({}, { elicitation: {} }),
      }),
    },
  );
  // A header carries printable ASCII only (the platform hands nothing else to a function).
  const asHeader = (value: unknown) => (typeof value === "string" && /^[\x20-\x7e]*$/.test(value) ? value : undefined);
  const modern = fc
    .tuple(call, id, modernMeta, fc.constantFrom("match", "match", "match", "match", "match", "match", "wrong", "missing"), authorization)
    .map(([{ method, params }, requestId, meta, headers, auth]) => {
      const own = typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
      const name = method === "resources/read" ? own.uri : own.name;
      const named = typeof name === "string" && ["tools/call", "resources/read", "prompts/get"].includes(method as string);
      const standard: Record<string, string | undefined> =
        headers === "missing"
          ? {}
          : {
              "mcp-method": headers === "wrong" ? "tools/list" : asHeader(method),
              "mcp-name": named ? asHeader(headers === "wrong" ? `${name}x` : name) : undefined,
            };
      return {
        message: { jsonrpc: "2.0", id: requestId, method, params: { ...own, _meta: meta } },
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          "mcp-protocol-version": "2026-07-28",
          ...standard,
          authorization: auth,
        },
      };
    });

  it("POST /mcp at 2026-07-28: the envelope, the standard headers, every method and mutated params", async () => {
    const outcomes = { result: 0, error: 0, none: 0 };
    const cases = await fuzz("POST /mcp 2026-07-28", modern, async ({ message, headers }) => {
      outcomes[await checkJsonRpc(await d.mcp({ method: "POST", headers: defined(headers), body: toWire(message) }), message)] += 1;
    });
    // About one in eight reaches a result, as above.
    expect(outcomes.result).toBeGreaterThan(cases / 25);
  });

  it("/mcp and /mcp/server-card with any method", async () => {
    await fuzz(
      "/mcp methods",
      fc.tuple(fc.constantFrom("GET", "DELETE", "PUT", "HEAD", "OPTIONS", "PATCH"), fc.constantFrom("/mcp", "/mcp/server-card")),
      async ([method, path]) => {
        const res = await d.mcp({ method }, undefined, path);
        if (path === "/mcp/server-card" && (method === "GET" || method === "HEAD")) {
          expect(res.status).toBe(200);
          await res.body?.cancel();
        } else await checkJsonRpc(res, undefined);
      },
      0.05,
    );
  });
});

describe("fuzzing A2A", () => {
  const textPart = fc.record({ text: fc.oneof(fc.constantFrom("What do your offers cost?", "case studies", "file a brief"), text) });
  const dataPart = fc.record({ data: fc.oneof(briefBody, jsonValue) });
  const part = fc.oneof(
    { weight: 4, arbitrary: textPart },
    { weight: 3, arbitrary: dataPart },
    {
      weight: 1,
      arbitrary: fc.record(
        { kind: fc.constantFrom("text", "data", "file"), text: fc.string(), data: jsonValue },
        { requiredKeys: ["kind"] },
      ),
    },
    { weight: 1, arbitrary: fc.record({ file: fc.record({ uri: fc.webUrl(), mimeType: fc.constant("image/png") }) }) },
    { weight: 1, arbitrary: jsonValue },
  );
  const message = mutated({
    messageId: fc.uuid(),
    role: fc.oneof(
      { weight: 5, arbitrary: fc.constant("ROLE_USER") },
      { weight: 1, arbitrary: fc.constantFrom("ROLE_AGENT", "user", "agent") },
    ),
    parts: fc.oneof(
      { weight: 3, arbitrary: fc.array(fc.oneof(textPart, dataPart), { minLength: 1, maxLength: 2 }) },
      { weight: 1, arbitrary: fc.array(part, { maxLength: 3 }) },
    ),
    metadata: fc.option(fc.record({ skillId: fc.constantFrom("offers", "case-studies", "svc-project-brief", "weather") }), {
      nil: undefined,
    }),
    taskId: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.string()) }),
  });
  const call = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        method: fc.constantFrom(
          "SendMessage",
          "SendMessage",
          "SendMessage",
          "SendMessage",
          "message/send",
          "SendStreamingMessage",
          "message/stream",
        ),
        params: mutated({ message, configuration: fc.constant({ blocking: true }) }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        method: fc.constantFrom("GetTask", "tasks/get", "CancelTask", "tasks/cancel", "TaskResubscription", "tasks/resubscribe"),
        params: mutated({
          id: fc.oneof(fc.uuid(), fc.string()),
          name: fc.oneof(
            fc.uuid().map((u) => `tasks/${u}`),
            fc.string(),
          ),
          historyLength: fc.integer(),
        }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        method: fc.constant("ListTasks"),
        params: mutated({
          pageSize: fc.oneof(fc.integer({ min: -5, max: 120 }), fc.string()),
          pageToken: fc.oneof(
            fc.base64String(),
            fc.string(),
            fc.json().map((j) => Buffer.from(j).toString("base64url")),
          ),
          status: fc.constantFrom("TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_UNSPECIFIED", "COMPLETED", 3, -1),
          contextId: fc.oneof(fc.uuid(), fc.string()),
          historyLength: fc.oneof(fc.integer(), fc.double()),
          statusTimestampAfter: fc.oneof(
            fc.date({ noInvalidDate: true }).map((t) => t.toISOString()),
            fc.string(),
          ),
          includeArtifacts: fc.oneof(fc.boolean(), jsonValue),
        }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        method: fc.oneof(
          fc.constantFrom("GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard", "SetTaskPushNotificationConfig"),
          fc.string(),
        ),
        params: fc.option(jsonValue, { nil: undefined }),
      }),
    },
  );
  const headers = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({ "a2a-version": fc.constant("1.0"), "content-type": fc.constant("application/json"), authorization }),
    },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          "a2a-version": fc.oneof(fc.constantFrom("1.0", "0.3", "", "2.0"), headerValue),
          "content-type": fc.constantFrom("application/json", "application/a2a+json", "text/plain"),
          authorization,
        },
        { requiredKeys: [] },
      ),
    },
  );

  it("POST /a2a/v1: methods and params, message/send with mutated parts, tasks/get ids, ListTasks filters and cursors", async () => {
    const outcomes = { result: 0, error: 0, none: 0 };
    const cases = await fuzz(
      "POST /a2a/v1",
      fc.tuple(envelope(call), fc.nat({ max: 19 }), wire(jsonValue), headers),
      async ([message, pick, raw, h]) => {
        const sent = pick === 0 ? raw : toWire(message);
        const init: RequestInit = {
          method: "POST",
          headers: defined(h),
          body: sent,
        };
        outcomes[await checkJsonRpc(await d.a2a(init), pick === 0 ? undefined : message)] += 1;
      },
    );
    // About one case in 35 is a complete, authorised call that the executor answers; the rest probe refusals. One in 250
    // is the floor, which a run of 500 misses with odds under one in 10,000.
    expect(outcomes.result).toBeGreaterThan(cases / 250);
  });

  it("/a2a/v1/rest: routes, methods, bodies and headers get the binding's answers or google.rpc.Status errors, never a 5xx", async () => {
    const path = fc.oneof(
      fc.constantFrom("/message:send", "/message:stream", "/tasks", "/tasks/x", "/tasks/x:cancel", "/extendedAgentCard", ""),
      // Escapes that do not decode, other cases, trailing slashes, a tenant segment.
      fc.constantFrom("/tasks/%zz", "/tasks/%00%ff", "/tasks/%zz:cancel", "/Tasks", "/message:send/", "/t/message:send", "/t/tasks"),
      // A dot segment is not a route of the binding: the URL resolves it, out of /a2a/v1/rest for "..".
      fc
        .string({ maxLength: 20 })
        .filter((s) => s !== "." && s !== "..")
        .map((s) => `/${encodeURIComponent(s)}`),
    );
    const body = fc.oneof(
      wire(jsonValue),
      fc.record({ message: fc.record({ messageId: fc.string(), role: fc.constant("ROLE_USER"), parts: jsonValue }) }).map(toWire),
      fc.constant(JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x".repeat(70_000) }] } })),
    );
    await fuzz(
      "/a2a/v1/rest",
      fc.tuple(path, fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"), body, headers),
      async ([route, method, sent, h]) => {
        const init: RequestInit = { method, headers: defined(h), ...(method === "GET" ? {} : { body: sent }) };
        const res = await d.a2a(init, d.nextIp(), `/a2a/v1/rest${route}`);
        expect(res.status).toBeLessThan(500);
        const text = await res.text();
        expect(text).not.toMatch(engineText);
        const answer = JSON.parse(text) as { error?: { code: number; status: string; details: unknown[] } };
        if (res.status >= 400) {
          expect(answer.error?.code).toBe(res.status);
          expect(typeof answer.error?.status).toBe("string");
          expect(Array.isArray(answer.error?.details)).toBe(true);
        }
      },
    );
  });
});
