import { TaskState } from "@a2a-js/sdk";
import { auth, type CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { a2aClient, brief, isTask, listing, message } from "../support/a2a-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost } from "../support/client-documents.ts";
import { fileDeployment } from "../support/deployment.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { personApproving } from "../support/mcp-oauth.ts";
import type { Http } from "../support/oauth-client.ts";
import { approvals, callbackUri } from "../support/people.ts";
import { countedFor, setCounted } from "../support/quota-count.ts";

/**
 * A crowd behind one hosted client: a hosted-style connector identified by one client ID metadata document, and 50
 * people. Each approves the connector on the consent screen in their own browser, from their own address; the
 * connector's agents then redeem the codes, read and file a brief for each of them, all from one egress address within
 * one window, with the MCP SDK's OAuth provider and client, and the A2A SDK's client. None is refused because of
 * another; one person whose agent loops is limited while the other 49 are not. A small crowd is served on its grants
 * even once the address's own quota and the busiest person's are spent.
 */
const base = "http://localhost:8888";
const endpoint = `${base}/mcp`;
const egress = "160.79.104.10";
const { d, clock } = fileDeployment("local", { baseUrl: base, env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" }, clock: true });
const modern = eras.find((e) => e.era === "modern")!;

/**
 * The connector's side of one person, as the MCP SDK runs it: its client_id is the document's URL (a hosted client knows
 * its own), the person approves in their browser, and the agent finishes from the egress address.
 */
function connectorFor(clientId: string, person: number) {
  return personApproving({
    browser: d.fetchFrom(`198.51.100.${person}`),
    redirectUrl: callbackUri,
    clientMetadata: { client_name: "Hosted connector", redirect_uris: [callbackUri], token_endpoint_auth_method: "none" },
    clientId,
  });
}

/** One person's agent, start to end: consent, the code redeemed, a read and a brief over MCP or A2A. */
async function serve(clientId: string, person: number, files: "mcp" | "a2a", agent: Http) {
  const { provider, saved } = connectorFor(clientId, person);
  expect(await auth(provider, { serverUrl: endpoint, scope: "svc:brief", fetchFn: agent })).toBe("REDIRECT");
  const landed = saved.landed!.searchParams;
  const finish = { serverUrl: endpoint, authorizationCode: landed.get("code")!, iss: landed.get("iss")!, fetchFn: agent };
  expect(await auth(provider, finish)).toBe("AUTHORIZED");
  const token = saved.tokens!.access_token;

  if (files === "mcp") {
    const mcp = await connectMcp(endpoint, modern, { authProvider: provider, fetch: agent });
    expect(((await mcp.callTool({ name: "get_offers", arguments: {} })) as CallToolResult).isError).toBeFalsy();
    const filed = (await mcp.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
    expect(filed.structuredContent).toMatchObject({ status: "received" });
    await mcp.close();
  } else {
    const a2a = await a2aClient(base, { token, fetchImpl: agent });
    expect(isTask(await a2a.sendMessage(message([{ text: "What do your offers cost?" }])))).toBe(false);
    const filed = await a2a.sendMessage(brief(freshBrief()));
    expect(isTask(filed) && filed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await a2a.listTasks(listing())).tasks).toHaveLength(1);
  }
  return { provider, token };
}

describe("50 people behind one hosted client and one egress address", () => {
  it("are each served in full, and the one whose agent loops is limited alone", async () => {
    const window = Math.floor(clock.toNextWindow(60) / 60_000);
    const host = await startDocumentHost();
    const clientId = host.publishClient("/connector.json", { client_name: "Hosted connector", redirect_uris: [callbackUri] });
    const agent = d.fetchFrom(egress);
    const leadsBefore = (await d.leads.list(10_000)).length;

    // The looping person is served like everyone else first, then their agent calls a read tool without end (not
    // tools/list, which the SDK's client answers from its cache for the result's ttlMs).
    const abuser = await serve(clientId, 50, "mcp", agent);
    const loop = (async () => {
      const mcp = await connectMcp(endpoint, modern, { authProvider: abuser.provider, fetch: agent });
      let refused = 0;
      for (let i = 0; i < policies.mcp.quota + 30; i++)
        await mcp.callTool({ name: "get_company", arguments: {} }).catch(() => (refused += 1));
      await mcp.close().catch(() => {});
      return refused;
    })();
    // Four people at a time: everything here (handlers, store, clients) shares this process's one thread, and 50 flows
    // at once would keep the store from answering within its deadline.
    const people = Array.from({ length: 49 }, (_, i) => i + 1);
    const served: PromiseSettledResult<unknown>[] = [];
    const lanes = Array.from({ length: 4 }, async () => {
      for (let person = people.shift(); person !== undefined; person = people.shift())
        served.push(...(await Promise.allSettled([serve(clientId, person, person % 2 === 0 ? "mcp" : "a2a", agent)])));
    });
    const [refused] = await Promise.allSettled([loop, ...lanes]);

    expect(served.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    expect(refused.status === "fulfilled" && refused.value).toBeGreaterThanOrEqual(30);
    expect((await d.leads.list(10_000)).length - leadsBefore).toBe(50);
    // All of it in one window, from one address whose own count (requests without a token) never came near its limit.
    expect(Math.floor(clock.now() / 60_000)).toBe(window);
    const store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
    expect(await countedFor(store, "mcp", egress)).toBeLessThan(policies.mcp.quota / 2);
    expect(await countedFor(store, "grants-per-address", egress)).toBeLessThan(policies["grants-per-address"].quota);
    await host.close();
  });
});

describe("a small crowd behind one hosted client, from one address", () => {
  it("serves each person's agent on its own grant, whatever the address and the busiest person have used", async () => {
    clock.toNextWindow(60);
    const store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
    const counted = (policy: keyof typeof policies, subject: string) => setCounted(store, policy, subject, policies[policy].quota);
    const egress = d.nextIp();
    const agent = d.fetchFrom(egress);
    const host = await startDocumentHost();
    const clientId = host.publishClient("/crowd.json", { client_name: "Hosted connector", redirect_uris: [callbackUri] });
    const people = await approvals(base, clientId, { browser: () => d.fetchFrom(), agent: () => agent });
    const [busy, ...others] = [await people.token(), await people.token(), await people.token()];
    const withToken = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: agent });

    // The address has spent its own /mcp quota (requests without a token), and the busy person their grant's.
    await (await agent(`${base}/mcp/server-card`)).body?.cancel();
    await counted("mcp", egress);
    const looping = await connectMcp(endpoint, modern, withToken(busy));
    await counted("mcp", decodeJwt(busy).grant_id as string);
    await expect(looping.callTool({ name: "get_company", arguments: {} })).rejects.toThrow(/429|Too many|rate/i);
    expect((await agent(`${base}/mcp/server-card`)).status).toBe(429);

    for (const [i, token] of others.entries()) {
      const mcp = await connectMcp(endpoint, modern, withToken(token));
      expect(((await mcp.callTool({ name: "get_offers", arguments: {} })) as CallToolResult).isError).toBeFalsy();
      if (i === 0) {
        const filed = (await mcp.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
        expect(filed.structuredContent).toMatchObject({ status: "received" });
      } else {
        const filed = await (await a2aClient(base, { token, fetchImpl: agent })).sendMessage(brief(freshBrief()));
        expect(isTask(filed) && filed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      }
      await mcp.close();
    }
    await host.close();
  });
});
