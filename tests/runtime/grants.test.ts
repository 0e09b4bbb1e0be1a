import { TaskState, type Task } from "@a2a-js/sdk";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { a2aClient, brief, isTask, listing } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { discover, register } from "../support/oauth-client.ts";
import { approvals, callbackUri } from "../support/people.ts";
import { localClient, setCounted } from "../support/quota-count.ts";

/**
 * An identity per grant, through npm start: people use the same public client (a registered `none` client, whose
 * client_id travels in every authorization URL, and a metadata-document client, whose client_id is the same for every
 * user of the app), and netlify dev gives all of them one address, as a hosted client's egress does. The victim files a
 * brief over A2A; the attacker, knowing only the client_id, approves their own consent, redeems their own code and tries
 * to read the brief back and to use up the victim's quota. tests/doors/grants.test.ts and tests/doors/crowd.test.ts run
 * the rest in-process.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const grantOf = (token: string) => decodeJwt(token).grant_id as string;
let documents: DocumentHost;

beforeAll(async () => {
  documents = await startDocumentHost();
});
afterAll(() => documents?.close());

/** Sets a policy's counter for `subject` to `count`, as if that many requests had been counted. */
const counted = (policy: keyof typeof policies, subject: string, count: number) => setCounted(store, policy, subject, count);

const clients: [kind: string, clientId: () => Promise<string>][] = [
  [
    "a registered public client",
    async () =>
      (
        await register(await discover(base), {
          client_name: "Shared agent",
          redirect_uris: [callbackUri],
          token_endpoint_auth_method: "none",
        })
      ).client_id,
  ],
  [
    "a metadata-document client",
    async () =>
      documents.publishClient(`/shared-${crypto.randomUUID()}.json`, {
        client_name: "Hosted agent",
        redirect_uris: [callbackUri],
        token_endpoint_auth_method: "none",
      }),
  ],
];

describe.each(clients)("two people behind %s", (_kind, newClient) => {
  let victim: string;
  let attacker: string;
  let filed: Task;
  beforeAll(async () => {
    const people = await approvals(base, await newClient(), { browser: () => fetch, agent: () => fetch });
    [victim, attacker] = [await people.token(), await people.token()];
    const secret = freshBrief({ phone: "+1 415 555 0100", budget_range: "50k_100k", message: "Confidential: our relaunch in May." });
    const answer = await (await a2aClient(base, { token: victim })).sendMessage(brief(secret));
    if (!isTask(answer) || answer.status?.state !== TaskState.TASK_STATE_COMPLETED) throw new Error("the brief was not filed");
    filed = answer;
  });

  it("the attacker's token lists none of the victim's tasks and cannot read the victim's task", async () => {
    const spy = await a2aClient(base, { token: attacker });
    const listed = await spy.listTasks(listing({ includeArtifacts: true }));
    expect(listed.tasks).toEqual([]);
    expect(JSON.stringify(listed)).not.toContain("Confidential");
    await expect(spy.getTask({ id: filed.id, historyLength: 10, tenant: "" })).rejects.toThrow(/not found/i);
    // The victim still sees their own.
    const own = await (await a2aClient(base, { token: victim })).listTasks(listing({ includeArtifacts: true }));
    expect(own.tasks.map((t) => t.id)).toContain(filed.id);
  });

  it("the attacker's empty brief messages use up the attacker's quota, never the victim's", async () => {
    const spy = await a2aClient(base, { token: attacker });
    await spy.sendMessage(brief({}));
    // The rest of the attacker's messages in the hour, as if sent (tests/doors/grants.test.ts sends them all).
    await counted("a2a-briefs", grantOf(attacker), policies["a2a-briefs"].quota);
    await expect(spy.sendMessage(brief({}))).rejects.toThrow(/a2a-briefs/);
    const again = await (await a2aClient(base, { token: victim })).sendMessage(brief(freshBrief()));
    expect(isTask(again) && again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

describe("a small crowd behind one hosted client, from one address", () => {
  it("serves each person's agent on its own grant, whatever the address and the busiest person have used", async () => {
    const clientId = documents.publishClient("/crowd.json", { client_name: "Hosted connector", redirect_uris: [callbackUri] });
    const people = await approvals(base, clientId, { browser: () => fetch, agent: () => fetch });
    const [busy, ...others] = [await people.token(), await people.token(), await people.token()];
    const modern = eras.find((e) => e.era === "modern")!;
    const withToken = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

    // The address has spent its own /mcp quota (requests without a token), and the busy person their grant's.
    await (await fetch(`${base}/mcp/server-card`)).body?.cancel();
    await counted("mcp", localClient, policies.mcp.quota);
    const looping = await connectMcp(`${base}/mcp`, modern, withToken(busy));
    await counted("mcp", grantOf(busy), policies.mcp.quota);
    await expect(looping.callTool({ name: "get_company", arguments: {} })).rejects.toThrow(/429|Too many|rate/i);
    expect((await fetch(`${base}/mcp/server-card`)).status).toBe(429);

    for (const [i, token] of others.entries()) {
      const mcp = await connectMcp(`${base}/mcp`, modern, withToken(token));
      expect(((await mcp.callTool({ name: "get_offers", arguments: {} })) as CallToolResult).isError).toBeFalsy();
      if (i === 0) {
        const filed = (await mcp.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
        expect(filed.structuredContent).toMatchObject({ status: "received" });
      } else {
        const filed = await (await a2aClient(base, { token })).sendMessage(brief(freshBrief()));
        expect(isTask(filed) && filed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      }
      await mcp.close();
    }
  });
});
