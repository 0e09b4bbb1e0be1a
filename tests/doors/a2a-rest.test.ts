import { describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { json } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";

/** A2A's HTTP+JSON binding at /a2a/v1/rest in-process, built as functions/a2a.ts builds it. */
const { d, clock } = fileDeployment("local", { clock: true });

const v1 = { "a2a-version": "1.0" };
const send = (message: unknown, headers: Record<string, string> = {}, ip = d.nextIp()) =>
  d.a2a(json({ message }, { ...v1, ...headers }), ip, "/a2a/v1/rest/message:send");
const userMessage = (parts: unknown[], metadata?: Record<string, unknown>) => ({
  messageId: crypto.randomUUID(),
  role: "ROLE_USER",
  parts,
  ...(metadata ? { metadata } : {}),
});
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: number; status: string; message: string; details: { reason: string; domain: string }[] } }).error;

describe("HTTP+JSON reads", () => {
  it("describes the binding at its base URL, the one the agent card publishes, with the card to start from", async () => {
    const res = await d.a2a({ method: "GET" }, d.nextIp(), "/a2a/v1/rest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const description = (await res.json()) as { url: string; agentCard: string; operations: { method: string; url: string }[] };
    expect(description).toMatchObject({ protocolBinding: "HTTP+JSON", protocolVersion: "1.0", url: `${d.baseUrl}/a2a/v1/rest` });
    expect(description.agentCard).toBe(`${d.baseUrl}/.well-known/agent-card.json`);
    expect(description.operations).toContainEqual({ method: "POST", url: `${d.baseUrl}/a2a/v1/rest/message:send` });
    expect(description.operations).toContainEqual({ method: "GET", url: `${d.baseUrl}/a2a/v1/rest/tasks/{id}` });
    const post = await d.a2a({ method: "POST", body: "{}" }, d.nextIp(), "/a2a/v1/rest");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("answers a read skill with the SDK's SendMessageResponse in application/a2a+json", async () => {
    const res = await send(userMessage([{ data: { skill: "offers" } }]));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/a2a\+json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("ratelimit")).toMatch(/^"a2a";r=119;/);
    const body = (await res.json()) as { message: { role: string; parts: { data?: unknown }[] } };
    expect(body.message.role).toBe("ROLE_AGENT");
    const offers = await (await d.api("/api/v1/offers")).json();
    expect(body.message.parts.find((p) => p.data)?.data).toEqual(offers);
  });

  it("takes application/a2a+json bodies, and answers GetTask of an unknown task with the SDK's NOT_FOUND", async () => {
    const res = await d.a2a(
      {
        method: "POST",
        headers: { ...v1, "content-type": "application/a2a+json" },
        body: JSON.stringify({ message: userMessage([{ text: "offers" }]) }),
      },
      d.nextIp(),
      "/a2a/v1/rest/message:send",
    );
    expect(res.status).toBe(200);
    const missing = await d.a2a({ headers: v1 }, d.nextIp(), "/a2a/v1/rest/tasks/no-such-task");
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({
      code: 404,
      status: "NOT_FOUND",
      details: [{ reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }],
    });
    // A task id longer than any id the agent takes names no operation: the SDK never sees it.
    const tooLong = await d.a2a({ headers: v1 }, d.nextIp(), `/a2a/v1/rest/tasks/${"t".repeat(257)}`);
    expect(tooLong.status).toBe(404);
    expect(await errorOf(tooLong)).toMatchObject({ status: "NOT_FOUND", message: expect.stringMatching(/is not an operation/) });
  });
});

describe("HTTP+JSON refusals, in the AIP-193 shape", () => {
  it("answers only the binding's own routes as written: any other spelling is not_found before the SDK's router sees it", async () => {
    const brief = JSON.stringify({ message: userMessage([{ data: freshBrief() }], { skillId: "svc-project-brief" }) });
    const sent = (path: string) =>
      d.a2a({ method: "POST", headers: { ...v1, "content-type": "application/json" }, body: brief }, d.nextIp(), path);
    // Express would take each of these as SendMessage (or ListTasks): a trailing slash, another case, an encoded colon,
    // an empty segment, a slash too many.
    for (const path of [
      "/a2a/v1/rest/message:send/",
      "/a2a/v1/rest/t/message:send/",
      "/a2a/v1/rest/MESSAGE:SEND",
      "/a2a/v1/rest/message%3Asend",
      "/a2a/v1/rest//message:send",
    ]) {
      const res = await sent(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/(a2a\+)?json/);
      expect(await errorOf(res), path).toMatchObject({ code: 404, status: "NOT_FOUND" });
    }
    for (const path of ["/a2a/v1/rest/tasks/", "/a2a/v1/rest/TASKS"]) {
      const res = await d.a2a({ headers: v1 }, d.nextIp(), path);
      expect(res.status, path).toBe(404);
      expect(await errorOf(res), path).toMatchObject({ code: 404, status: "NOT_FOUND" });
    }
    // Under a tenant segment a route is the same route, behind the same gate: an anonymous brief is asked for a token.
    expect((await sent("/a2a/v1/rest/t/message:send")).status).toBe(401);
    expect((await d.a2a({ headers: v1 }, d.nextIp(), "/a2a/v1/rest/t/tasks")).status).toBe(401);
  });

  it("answers a path with a malformed escape as google.rpc.Status JSON, never a page or a stack", async () => {
    for (const [path, method] of [
      ["/a2a/v1/rest/tasks/%zz", "GET"],
      ["/a2a/v1/rest/tasks/%00%ff", "GET"],
      ["/a2a/v1/rest/tasks/%zz:cancel", "POST"],
    ]) {
      const res = await d.a2a({ method, headers: v1 }, d.nextIp(), path);
      const text = await res.text();
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/(a2a\+)?json/);
      expect(res.headers.get("x-powered-by"), path).toBeNull();
      expect(JSON.parse(text), path).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
      expect(text, path).not.toMatch(/Express|URIError|node_modules|at /);
    }
  });

  it("asks for a token with svc:brief: 401 and 403 with the same challenges as JSON-RPC", async () => {
    const brief = userMessage([{ data: freshBrief() }]);
    const anonymous = await send(brief);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(
      /^Bearer .*resource_metadata="https:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/a2a\/v1"/,
    );
    expect(await errorOf(anonymous)).toMatchObject({
      code: 401,
      status: "UNAUTHENTICATED",
      details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "INVALID_TOKEN", domain: "frontdoor" }],
    });
    const readOnly = await send(brief, { authorization: `Bearer ${await d.token("svc:read")}` });
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers.get("www-authenticate")).toMatch(/error="insufficient_scope".*scope="svc:brief"/);
    expect(await errorOf(readOnly)).toMatchObject({ code: 403, status: "PERMISSION_DENIED", details: [{ reason: "INSUFFICIENT_SCOPE" }] });
  });

  it.each([
    ["an unknown route", { headers: v1 }, "/a2a/v1/rest/nothing/here", 404, "NOT_FOUND", "NOT_FOUND"],
    ["a wrong method", { method: "DELETE", headers: v1 }, "/a2a/v1/rest/tasks/x", 405, "UNIMPLEMENTED", "METHOD_NOT_ALLOWED"],
    ["malformed JSON", json("{", v1), "/a2a/v1/rest/message:send", 400, "INVALID_ARGUMENT", "INVALID_JSON"],
    [
      "another media type",
      { method: "POST", headers: { ...v1, "content-type": "text/plain" }, body: "hi" },
      "/a2a/v1/rest/message:send",
      415,
      "INVALID_ARGUMENT",
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "an oversized body",
      json({ message: { parts: [{ text: "x".repeat(70_000) }] } }, v1),
      "/a2a/v1/rest/message:send",
      413,
      "INVALID_ARGUMENT",
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "a message without parts",
      json({ message: { messageId: "m" } }, v1),
      "/a2a/v1/rest/message:send",
      400,
      "INVALID_ARGUMENT",
      "INVALID_PARAMS",
    ],
    [
      "a file part",
      json({ message: userMessage([{ url: "https://x.example/f" }]) }, v1),
      "/a2a/v1/rest/message:send",
      400,
      "INVALID_ARGUMENT",
      "CONTENT_TYPE_NOT_SUPPORTED",
    ],
    [
      "no A2A-Version (0.3, not served on REST)",
      { headers: {} },
      "/a2a/v1/rest/tasks/x",
      400,
      "FAILED_PRECONDITION",
      "VERSION_NOT_SUPPORTED",
    ],
    [
      "streaming",
      json({ message: userMessage([{ text: "offers" }]) }, v1),
      "/a2a/v1/rest/message:stream",
      400,
      "FAILED_PRECONDITION",
      "UNSUPPORTED_OPERATION",
    ],
  ] as const)("answers %s with its status and reason", async (_, init, path, status, name, reason) => {
    const res = await d.a2a(init as RequestInit, d.nextIp(), path);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/a2a\+json/);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: status, status: name });
    expect(error.details[0]!.reason).toBe(reason);
    // A2A's own reasons are in the protocol's domain, so SDK clients know them; the rest are this service's.
    const a2aOwn = ["INVALID_PARAMS", "CONTENT_TYPE_NOT_SUPPORTED", "VERSION_NOT_SUPPORTED", "UNSUPPORTED_OPERATION"];
    expect(error.details[0]!.domain).toBe(a2aOwn.includes(reason) ? "a2a-protocol.org" : "frontdoor");
  });

  it.each([
    ["DELETE", "/a2a/v1/rest/tasks", "GET, HEAD, OPTIONS"],
    ["POST", "/a2a/v1/rest/tasks", "GET, HEAD, OPTIONS"],
    ["GET", "/a2a/v1/rest/message:send", "POST, OPTIONS"],
    ["PUT", "/a2a/v1/rest/tasks/abc:cancel", "POST, OPTIONS"],
  ])("answers %s %s with 405 and the methods that path takes", async (method, path, allow) => {
    const res = await d.a2a({ method, headers: v1 }, d.nextIp(), path);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    await res.body?.cancel();
  });

  it("shares the JSON-RPC endpoint's quota per IP", async () => {
    const ip = d.nextIp();
    await (await d.a2a(json("{", v1), ip)).body?.cancel();
    const res = await d.a2a({ headers: v1 }, ip, "/a2a/v1/rest/tasks/x");
    expect(res.headers.get("ratelimit")).toMatch(/^"a2a";r=118;/);
  });
});

describe("the media type on JSON-RPC", () => {
  it("answers application/a2a+json to a client that accepts it, application/json otherwise", async () => {
    const call = { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } };
    const preferring = await d.a2a(
      json(call, { ...v1, "content-type": "application/a2a+json", accept: "application/a2a+json, application/json" }),
    );
    expect(preferring.headers.get("content-type")).toBe("application/a2a+json");
    expect(await preferring.json()).toMatchObject({ error: { code: -32001 } });
    const plain = await d.a2a(json(call, v1));
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
