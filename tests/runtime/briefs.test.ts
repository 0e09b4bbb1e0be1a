import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { freshBrief } from "../support/briefs.ts";
import { functionCallsDuring } from "../support/netlify-dev-log.ts";
import type { SentMessage } from "../support/postmark-standin.ts";

/**
 * POST /api/v1/briefs through the local runtime: the edge gateway, the briefs function, the store, Postmark's stand-in.
 * Forged tokens and bad bodies, each answered by the function alone, are in tests/doors/briefs.test.ts.
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
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const messages = async () => (await (await fetch(`${postmark}/_standin/messages`)).json()) as { attempts: number; sent: SentMessage[] };
const sentFor = async (leadId: string) =>
  (await messages()).sent.filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === leadId);
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
    for (const path of ["/API/v1/briefs", "/Api/V1/Briefs", "/api/v1/BRIEFS"]) {
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
  it("refuses a request without a token as invalid_token, with a challenge that starts the OAuth flow", async () => {
    const res = await post(freshBrief(), {}, null);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer scope="svc:brief", resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
    expect((await problem(res)).code).toBe("invalid_token");
  });

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
  it("files nothing and e-mails nobody for dry_run, and says so", async () => {
    const before = { leads: await store.zcard("leads"), attempts: (await messages()).attempts };
    const res = await post(freshBrief({ dry_run: true }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dry_run: true, valid: true, message: expect.stringContaining("Nothing was filed") });
    expect(await store.zcard("leads")).toBe(before.leads);
    expect((await messages()).attempts).toBe(before.attempts);
  });

  it("files a brief: 201 with the lead id, the time received, what happens next, the normalised brief; one e-mail", async () => {
    const brief = freshBrief({ full_name: "  Grace   Hopper ", site_size: "growth-site" });
    const res = await post(brief);
    expect(res.status).toBe(201);
    expect(res.headers.get("ratelimit-policy")).toContain('"public-api";q=120;w=60');
    const body = (await res.json()) as { lead_id: string; received_at: string; next_steps: string; brief: Record<string, unknown> };
    expect(body.lead_id).toMatch(/^lead_/);
    expect(Date.parse(body.received_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.next_steps).toContain(`reply by e-mail to ${brief.work_email}`);
    expect(body.brief).toMatchObject({ full_name: "Grace Hopper", site_size: "growth-site" });
    await expect.poll(() => sentFor(body.lead_id).then((m) => m.length), { timeout: 10_000 }).toBe(1);
    const mail = (await sentFor(body.lead_id))[0]!.body;
    expect(mail).toMatchObject({
      To: "leads@studio.example",
      From: "website@studio.example",
      ReplyTo: brief.work_email,
      Tag: "lead-brief",
    });
  });

  it("delivers exactly once when Postmark fails first, through the scheduled delivery job", async () => {
    await failPostmark("500");
    const res = await post(freshBrief());
    expect(res.status).toBe(201);
    const { lead_id } = (await res.json()) as { lead_id: string };
    // The first attempt (after the answer) has run and failed: the lead waits for the job, its lock released.
    await expect
      .poll(async () => (await store.get<Lead>(`lead:${lead_id}`))?.delivery, { timeout: 10_000 })
      .toMatchObject({ state: "pending", attempts: 1 });
    await expect.poll(() => store.exists(`lead:${lead_id}:lock`), { timeout: 5_000 }).toBe(0);
    expect(await sentFor(lead_id)).toHaveLength(0);
    expect((await runDeliveryJob()).status).toBe(200);
    expect(await sentFor(lead_id)).toHaveLength(1);
    await runDeliveryJob();
    expect(await sentFor(lead_id)).toHaveLength(1);
  });

  it("answers a retry with the same Idempotency-Key with the same response, and refuses the key for another brief", async () => {
    const key = randomUUID();
    const brief = freshBrief();
    const first = await post(brief, { "Idempotency-Key": key });
    const again = await post(brief, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const other = await post(freshBrief(), { "Idempotency-Key": key });
    expect(other.status).toBe(422);
    expect((await problem(other)).code).toBe("idempotency_key_reused");
  });
});
