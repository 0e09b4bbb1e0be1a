import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import { sentForLead, standInMessages } from "../support/postmark-standin.ts";

/**
 * POST /api/v1/briefs through the local runtime: the edge gateway, the briefs function, the store, Postmark's stand-in,
 * the scheduled delivery job. What only npm start shows: netlify dev matching a function's path in any case; a 403
 * arriving unchanged, the function run once; a brief whose first e-mail fails after the answer (netlify dev's
 * waitUntil), delivered once by the deliver-leads function, and its retry under its Idempotency-Key; how netlify dev
 * hands on a body that is not UTF-8. Every refusal, idempotency case and field error is in tests/doors/briefs.test.ts.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });

let token: string;
let readOnlyToken: string;
beforeAll(async () => {
  token = (await clientCredentialsToken(base, "svc:brief")).token;
  readOnlyToken = (await clientCredentialsToken(base, "svc:read")).token;
});

const post = (body: string | object, headers: Record<string, string> = {}, bearer: string | null = token) =>
  fetch(`${base}/api/v1/briefs`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}), ...headers },
    body: typeof body === "string" || body instanceof Blob ? body : JSON.stringify(body),
  });
const messages = () => standInMessages(postmark);
const sentFor = (leadId: string) => sentForLead(postmark, leadId);
const failPostmark = (...faults: string[]) => fetch(`${postmark}/_standin/faults`, { method: "POST", body: JSON.stringify(faults) });
/** The delivery job, as the scheduler runs it, after making every waiting lead due now. */
const runDeliveryJob = async () => {
  for (const id of await store.zrange<string[]>("leads:due", 0, -1)) await store.zadd("leads:due", { score: 0, member: id });
  return fetch(`${base}/.netlify/functions/deliver-leads`, { method: "POST", body: "{}" });
};
const problem = async (res: Response) =>
  (await res.json()) as { code: string; status: number; instance: string; errors?: { field: string; code: string }[] };

describe("the one path", () => {
  it("files nothing at another spelling of /api/v1/briefs, which the /api gateway would not count: not_found", async () => {
    const leads = await store.zcard("leads");
    // Outside the gateway's path and inside it: netlify dev hands either to the briefs function.
    for (const path of ["/API/v1/briefs", "/api/v1/BRIEFS"]) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify(freshBrief()),
      });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toBe("application/problem+json");
      expect((await problem(res)).code, path).toBe("not_found");
    }
    expect(await store.zcard("leads")).toBe(leads);
  });
});

describe("authentication", () => {
  it("refuses a token without svc:brief as insufficient_scope, for the path asked, running the function once", async () => {
    const { result: res, calls } = await functionCallsDuring(base, inject("netlifyDevLog"), () => post(freshBrief(), {}, readOnlyToken));
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks the scope svc:brief.", scope="svc:brief", resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
    expect(await problem(res)).toMatchObject({ code: "insufficient_scope", status: 403, instance: "/api/v1/briefs" });
    // netlify dev calls a function again at `.html` and like paths after a 403; behind the gateway's next() it must not.
    expect(calls.filter((call) => call.includes("/api/v1/briefs"))).toEqual(["POST /api/v1/briefs"]);
  });
});

describe("filing", () => {
  it("files a brief under an Idempotency-Key while Postmark fails: the scheduled job e-mails it once, and the retry is the same answer", async () => {
    await failPostmark("500");
    const key = { "Idempotency-Key": randomUUID() };
    const brief = freshBrief();
    const res = await post(brief, key);
    expect(res.status).toBe(201);
    expect(res.headers.get("ratelimit-policy")).toContain('"public-api";q=120;w=60');
    const receipt = (await res.json()) as { lead_id: string };
    const { lead_id } = receipt;
    // The first attempt (after the answer) has run and failed: the lead waits for the job, its lock released.
    await expect.poll(async () => (await store.get<Lead>(`lead:${lead_id}`))?.delivery).toMatchObject({ state: "pending", attempts: 1 });
    await expect.poll(() => store.exists(`lead:${lead_id}:lock`)).toBe(0);
    expect(await sentFor(lead_id)).toHaveLength(0);
    expect((await runDeliveryJob()).status).toBe(200);
    const sent = await sentFor(lead_id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({
      To: "leads@studio.example",
      From: "website@studio.example",
      ReplyTo: brief.work_email,
      Tag: "lead-brief",
    });
    await runDeliveryJob();
    expect(await sentFor(lead_id)).toHaveLength(1);

    const again = await post(brief, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(receipt);
  });
});

describe("a body that is not UTF-8", () => {
  it("refuses a name sent in bytes that are not UTF-8, whichever way the runtime hands the body on: nothing filed or sent", async () => {
    const before = { leads: await store.zcard("leads"), attempts: (await messages()).attempts };
    const [head, tail] = JSON.stringify(freshBrief({ full_name: "Björk Lovelace" })).split("ö");
    // "Björk" in Latin-1: 0xF6 is no UTF-8. netlify dev (and Netlify, for a body it does not pass as base64) decodes the
    // body before the function runs, so the function sees U+FFFD where the byte was; a runtime that passes the bytes
    // on gets the core's own refusal of the bytes.
    const res = await post(new Blob([head!, new Uint8Array([0xf6]), tail!]));
    const body = (await res.json()) as { code: string; detail: string; errors?: { field: string; message: string }[] };
    if (res.status === 422) {
      expect(body.code).toBe("invalid_brief");
      expect(body.errors).toEqual([
        expect.objectContaining({ field: "/full_name", message: expect.stringContaining("must not contain U+FFFD") }),
      ]);
    } else {
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ code: "invalid_json", detail: "The body is not valid UTF-8 (RFC 8259 §8.1)." });
    }
    expect(await store.zcard("leads")).toBe(before.leads);
    expect((await messages()).attempts).toBe(before.attempts);
  });
});
