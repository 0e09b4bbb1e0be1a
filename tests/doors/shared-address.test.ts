import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { policies, type PolicyName } from "../../src/limits/policies.ts";
import type { FreeTimes } from "../support/booking.ts";
import { person } from "../support/booking.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost } from "../support/client-documents.ts";
import { fileDeployment } from "../support/deployment.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { approvals, callbackUri } from "../support/people.ts";
import { countedFor, setCounted } from "../support/quota-count.ts";

/**
 * One person farms grants behind a hosted client: they approve its connector again and again in their own browser, and
 * its agents call from the one egress address every person's calls come from. The ceilings one address shares
 * (bookings, briefs, requests: every grant together) count each grant where its person approved it, so the farmer spends
 * their own address's ceilings, and the 49 others behind the same client and egress book, file and read as before.
 * tests/runtime/shared-address.test.ts shows npm start handing each door its client's own address, as Netlify does.
 */
const base = "http://localhost:8888";
const egress = "160.79.104.20";
const farmer = "203.0.113.66";
const { d } = fileDeployment("local", { baseUrl: base, env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" } });
const la = "America/Los_Angeles";
const store = () => new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
const modern = eras.find((e) => e.era === "modern")!;
const consentOf = (token: string) => decodeJwt(token).consent_address as string;

const post = (path: string, body: unknown, token: string) =>
  d.api(
    path,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    },
    egress,
  );

/** Sets the ceiling's counter of `subject` to its quota, as if the address had used it all. */
const spent = (policy: PolicyName, subject: string) => setCounted(store(), policy, subject, policies[policy].quota);

let starts: string[] = [];
async function freeStart(): Promise<string> {
  if (starts.length === 0) {
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const res = await d.api(`/api/v1/free-times?from=${day(2)}&to=${day(21)}&time_zone=${la}`);
    starts = ((await res.json()) as FreeTimes).times.map((t) => t.start).slice(5);
  }
  return starts.shift()!;
}

describe("one person farming grants behind a hosted client's address", () => {
  it("spends their own address's ceilings; the 49 others behind the same address book, file and read as before", async () => {
    const host = await startDocumentHost();
    const clientId = host.publishClient("/farmed.json", { client_name: "Hosted connector", redirect_uris: [callbackUri] });
    const through = (browser: string) =>
      approvals(base, clientId, { browser: () => d.fetchFrom(browser), agent: () => d.fetchFrom(egress) });
    const farming = await through(farmer);

    // The farmer's first grant books and files, and their agent reads over MCP: each ceiling counts the farmer's address.
    const first = await farming.token("svc:brief");
    expect(consentOf(first)).toMatch(/^ca_/);
    expect(JSON.stringify(decodeJwt(first))).not.toContain(farmer);
    expect((await post("/api/v1/bookings", person(await freeStart(), { time_zone: la }), first)).status).toBe(201);
    expect((await post("/api/v1/briefs", freshBrief(), first)).status).toBe(201);
    const mcp = await connectMcp(`${base}/mcp`, modern, {
      requestInit: { headers: { authorization: `Bearer ${first}` } },
      fetch: d.fetchFrom(egress),
    });
    expect(((await mcp.callTool({ name: "get_offers", arguments: {} })) as CallToolResult).isError).toBeFalsy();
    await mcp.close();
    for (const policy of ["bookings-per-address", "briefs-per-address", "grants-per-address"] as const) {
      expect(await countedFor(store(), policy, egress), policy).toBe(0);
      if (policy !== "grants-per-address") await spent(policy, consentOf(first));
    }

    // Every new grant the farmer approves is still theirs: refused at each ceiling, whichever door.
    const farmed = await farming.token("svc:brief");
    expect(consentOf(farmed)).toBe(consentOf(first));
    const booked = await post("/api/v1/bookings", person(await freeStart(), { time_zone: la }), farmed);
    expect(booked.status).toBe(429);
    expect(await booked.json()).toMatchObject({ code: "booking_quota_exceeded" });
    expect(booked.headers.get("RateLimit")).toContain('"bookings-per-address";r=0');
    const filed = await post("/api/v1/briefs", freshBrief(), farmed);
    expect(filed.status).toBe(429);
    expect(filed.headers.get("RateLimit")).toContain('"briefs-per-address";r=0');
    await spent("grants-per-address", consentOf(first));
    await expect(farming.token("svc:brief")).rejects.toMatchObject({ error: "rate_limited" });
    const read = await d.mcp(
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${farmed}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      },
      egress,
    );
    expect(read.status).toBe(429);

    // The others: each approves in their own browser; their agents call from the same egress address as the farmer's,
    // book over REST, and file and read over MCP (/api counts its client IP for every caller: see docs/decisions.md).
    const people = Array.from({ length: 49 }, (_, i) => i + 1);
    const outcomes: string[] = [];
    const lanes = Array.from({ length: 4 }, async () => {
      for (let n = people.shift(); n !== undefined; n = people.shift()) {
        const token = await (await through(`198.51.100.${n}`)).token("svc:brief");
        const booking = await post("/api/v1/bookings", person(await freeStart(), { time_zone: la }), token);
        const mcp = await connectMcp(`${base}/mcp`, modern, {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
          fetch: d.fetchFrom(egress),
        });
        const filed = (await mcp.callTool({ name: "submit_project_brief", arguments: freshBrief() })) as CallToolResult;
        const read = (await mcp.callTool({ name: "get_offers", arguments: {} })) as CallToolResult;
        await mcp.close();
        outcomes.push(`${booking.status} ${(filed.structuredContent as { status?: string } | undefined)?.status} ${read.isError ?? false}`);
      }
    });
    await Promise.all(lanes);
    expect(outcomes).toEqual(Array(49).fill("201 received false"));
    await host.close();
  });
});
