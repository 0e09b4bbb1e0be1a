import { TaskState, type Task } from "@a2a-js/sdk";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { a2aClient, brief, dataOf, isTask } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { connectMcp, eras, text } from "../support/mcp-client.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { setCounted } from "../support/quota-count.ts";

/**
 * A refusal REST answers with Retry-After carries the same wait as retry_after on MCP and A2A, through npm start: a grant
 * that has filed its briefs for now is told when to retry by every door, and each says the same number of seconds.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const grantOf = (token: string) => decodeJwt(token).grant_id as string;
const briefs = policies["briefs-per-grant"];

let token: string;
beforeAll(async () => {
  token = (await clientCredentialsToken(base, "svc:brief")).token;
});

const fileByRest = () =>
  fetch(`${base}/api/v1/briefs`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(freshBrief()),
  });

/** The JSON that ends an MCP tool error's text. */
const detailsOf = (result: CallToolResult) => JSON.parse(text(result).slice(text(result).indexOf("\n\n{"))) as Record<string, unknown>;

describe("a grant past its brief quota", () => {
  it("is told when to retry by REST's Retry-After, and by retry_after on MCP and A2A", async () => {
    expect((await fileByRest()).status).toBe(201);
    await setCounted(store, "briefs-per-grant", grantOf(token), briefs.quota);

    const rest = await fileByRest();
    expect([rest.status, ((await rest.json()) as { code: string }).code]).toEqual([429, "brief_quota_exceeded"]);
    const wait = Number(rest.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    // The same window's end, read a moment apart by each door.
    const near = (seconds: unknown) => expect(Math.abs(Number(seconds) - wait)).toBeLessThanOrEqual(5);

    const mcp = await connectMcp(`${base}/mcp`, eras[0], { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const refused = (await mcp.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
    await mcp.close();
    expect(refused.isError).toBe(true);
    const details = detailsOf(refused);
    expect(details.code).toBe("brief_quota_exceeded");
    near(details.retry_after);

    const task = (await (await a2aClient(base, { token })).sendMessage(brief(freshBrief()))) as Task;
    expect(isTask(task) && task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    const data = dataOf(task.status!.message!.parts) as Record<string, unknown>;
    expect(data.code).toBe("brief_quota_exceeded");
    near(data.retry_after);
  });
});
