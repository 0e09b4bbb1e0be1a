import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { freshBrief } from "../support/briefs.ts";
import { json, mcpCall } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";
import { connectMcp, connectShowingForms, eras, text } from "../support/mcp-client.ts";
import { countedFor, setCounted } from "../support/quota-count.ts";

/**
 * The same write answers the same way at every door, in-process: what an attack on the doors found where one door
 * differed (a member named __proto__, an idempotency key reused under a confirmation form, the shape of a refusal, an
 * address's ceiling spent).
 */
const { d } = fileDeployment("local");
const modern = eras.find((e) => e.era === "modern")!;
let token: string;
beforeAll(async () => {
  token = await d.token("svc:brief");
});
const bearer = () => ({ requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: d.fetchFrom() });
/** The JSON that ends an MCP tool error's text. */
const detailsOf = (result: CallToolResult) => JSON.parse(text(result).slice(text(result).lastIndexOf("\n\n{"))) as Record<string, unknown>;

/** A brief's JSON with a member named __proto__ of its own, as a client may send it (JSON.stringify never writes one). */
const withProto = (brief: Record<string, unknown>, inner: Record<string, unknown>) =>
  `${JSON.stringify(brief).slice(0, -1)},"__proto__":${JSON.stringify(inner)}}`;

describe("a member named __proto__", () => {
  it("is an unknown field on REST and A2A alike, never fields the brief inherits", async () => {
    const { full_name: _, ...brief } = freshBrief();
    const body = withProto(brief, { full_name: "Inherited Name" });
    const rest = await d.api("/api/v1/briefs", json(body, { authorization: `Bearer ${token}` }));
    const problem = (await rest.json()) as { code: string; errors: { field: string }[] };
    expect([rest.status, problem.code]).toEqual([422, "invalid_brief"]);
    expect(problem.errors.map((e) => e.field).sort()).toEqual(["/__proto__", "/full_name"]);

    const send = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","metadata":{"skillId":"svc-project-brief"},"parts":[{"data":${body}}]}}}`;
    const a2a = await d.a2a(json(send, { "a2a-version": "1.0", authorization: `Bearer ${token}` }));
    // The wire's JSON: the state by its name, each part by its member.
    type WirePart = { data?: { code: string; errors: { field: string }[] } };
    const task = ((await a2a.json()) as { result: { task: { status: { state: string; message: { parts: WirePart[] } } } } }).result.task;
    expect(task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const data = task.status.message.parts.find((part) => part.data)!.data!;
    expect(data.code).toBe("invalid_brief");
    expect(data.errors.map((e) => e.field).sort()).toEqual(["/__proto__", "/full_name"]);
  });
});

describe("an idempotency key used for one brief, sent with another", () => {
  it("is refused in a client that shows forms, as everywhere else, and by a dry run; the person is not asked", async () => {
    const key = crypto.randomUUID();
    const first = await connectMcp(`${d.baseUrl}/mcp`, modern, bearer());
    const filed = (await first.callTool({
      name: "submit_project_brief",
      arguments: { ...freshBrief(), idempotency_key: key },
    })) as CallToolResult;
    await first.close();
    expect(filed.isError, text(filed)).toBeFalsy();

    const forms = await connectShowingForms(`${d.baseUrl}/mcp`, modern, bearer(), () => ({ action: "accept", content: {} }));
    const other = (await forms.client.callTool({
      name: "submit_project_brief",
      arguments: { ...freshBrief(), idempotency_key: key },
    })) as CallToolResult;
    await forms.client.close();
    expect(other.isError).toBe(true);
    expect(detailsOf(other)).toMatchObject({ code: "idempotency_key_reused" });
    expect(forms.asked).toHaveLength(0);

    // A dry run says what sending it would: the key is refused there too.
    const dry = await d.api(
      "/api/v1/briefs",
      json(freshBrief({ dry_run: true }), { authorization: `Bearer ${token}`, "idempotency-key": key }),
    );
    expect([dry.status, ((await dry.json()) as { code: string }).code]).toEqual([422, "idempotency_key_reused"]);
  });
});

describe("a brief refused field by field on MCP", () => {
  it("ends with the same details as any refusal: the code beside the errors", async () => {
    const mcp = await connectMcp(`${d.baseUrl}/mcp`, modern, bearer());
    const invalid = (await mcp.callTool({ name: "submit_project_brief", arguments: { full_name: "Ada" } })) as CallToolResult;
    const badKey = (await mcp.callTool({
      name: "submit_project_brief",
      arguments: { ...freshBrief(), idempotency_key: "" },
    })) as CallToolResult;
    await mcp.close();
    expect(detailsOf(invalid)).toMatchObject({ code: "invalid_brief", errors: expect.any(Array) });
    expect(detailsOf(badKey)).toMatchObject({ code: "invalid_idempotency_key", errors: [{ field: "/idempotency_key" }] });
  });
});

describe("an address whose ceiling is spent", () => {
  it("refuses the grant's briefs without spending the grant's own allowance", async () => {
    const store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
    const own = await d.token("svc:brief");
    const grant = decodeJwt(own).grant_id as string;
    const from = d.nextIp();
    const file = async (id: number) => {
      const res = await d.mcp(
        mcpCall("tools/call", { name: "submit_project_brief", arguments: freshBrief() }, id, { authorization: `Bearer ${own}` }),
        from,
      );
      return ((await res.json()) as { result: CallToolResult }).result;
    };
    expect((await file(1)).isError).toBeFalsy();
    await setCounted(store, "briefs-per-address", from, policies["briefs-per-address"].quota);
    for (const id of [2, 3, 4]) expect(detailsOf(await file(id))).toMatchObject({ code: "brief_quota_exceeded" });
    expect(await countedFor(store, "briefs-per-grant", grant)).toBe(1);
  });
});
