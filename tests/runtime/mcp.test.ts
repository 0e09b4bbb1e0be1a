import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { beforeEach, describe, expect, inject, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { freshBrief } from "../support/briefs.ts";
import { connectShowingForms, eras, text } from "../support/mcp-client.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { machineProvider } from "../support/oauth-client.ts";
import { sentForLead } from "../support/postmark-standin.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * /mcp end to end through the local runtime, only what npm start shows: in each era, the v2 SDK's own client files a
 * real brief through its client-side OAuth (the 401, the token, the retry, each call a fresh worker), confirmed in the
 * client's form where the era can ask (2026-07-28's answer comes back to another worker, which must take its state),
 * and the brief reaches Postmark's stand-in once; and a refusal arrives unchanged through the emulator, which calls a
 * function again after a 403 or 404, run once and counted once. Every tool, resource and prompt, each refusal of the HTTP
 * layer, the form's branches (answered again, declined, racing an accept), hostile params, idempotency and field errors,
 * the quota and JSON-RPC batches are in tests/doors/mcp.test.ts, in-process, in both eras.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const endpoint = `${base}/mcp`;

// The emulator gives every client 127.0.0.1: each test starts from a fresh /mcp quota (files run one at a time).
beforeEach(async () => {
  const keys = await store.keys("rl:mcp:*");
  if (keys.length > 0) await store.del(...keys);
});

const sentFor = (leadId: string) => sentForLead(postmark, leadId);

describe.each(eras)("a v2 client $mode that shows forms, given only /mcp", (era) => {
  it("files a real brief through the SDK's client-side OAuth, confirmed where its era can ask, e-mailed once as an MCP lead", async () => {
    const brief = freshBrief({ message: "A new site for our clinics." });
    const corrected = { ...brief, work_email: `corrected-${brief.work_email}` };
    // Reads go without a token; the brief meets the 401 and the SDK fetches a token (client_credentials), then retries.
    const { client, asked } = await connectShowingForms(endpoint, era, { authProvider: await machineProvider(base, era.mode) }, () => ({
      action: "accept",
      content: corrected,
    }));
    expect(client.getProtocolEra()).toBe(era.era);
    const result = (await client.callTool({ name: "submit_project_brief", arguments: brief })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    // A stateless endpoint cannot reach a 2025-era client with a request of its own: its brief is filed as sent.
    const filed = era.era === "modern" ? corrected : brief;
    expect(asked.map((form) => form.message)).toEqual(
      era.era === "modern" ? [expect.stringContaining("A person at the studio will read it and e-mail you")] : [],
    );
    const receipt = result.structuredContent as { lead_id: string; status: string; next_steps: string };
    expect(receipt).toMatchObject({ status: "received", lead_id: expect.stringMatching(/^lead_/) });
    expect(receipt.next_steps).toContain(filed.work_email);
    expect(text(result)).toContain(receipt.lead_id);
    await expect.poll(() => sentFor(receipt.lead_id).then((m) => m.length)).toBe(1);
    expect((await sentFor(receipt.lead_id))[0]!.body).toMatchObject({ To: "leads@studio.example", ReplyTo: filed.work_email });
    expect(await store.get<Lead>(`lead:${receipt.lead_id}`)).toMatchObject({
      channel: "mcp",
      brief: { work_email: filed.work_email, full_name: brief.full_name },
    });
    await client.close();
  });
});

describe("a refusal, through the emulator", () => {
  it("answers 2026-07-28's removed ping with 404 and -32601 unchanged, the function run once and counted once", async () => {
    const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const { result: res, calls } = await functionCallsDuring(base, inject("netlifyDevLog"), () =>
      fetch(endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": "ping",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 21, method: "ping", params: { _meta: envelope } }),
      }),
    );
    expect(res.status).toBe(404);
    // netlify dev calls a function again at `/mcp.html` and like paths after a 404; behind npm start's front it must not.
    expect(calls.filter((c) => c.includes("/mcp"))).toEqual(["POST /mcp"]);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 21, error: { code: -32601 } });
    expect(res.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
    expect(await countedFor(store, "mcp", localClient)).toBe(1);
  });
});
