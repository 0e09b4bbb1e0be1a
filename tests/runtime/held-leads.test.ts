import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { utcDay } from "../../src/briefs/held.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { freshBrief } from "../support/briefs.ts";
import { leadsCli } from "../support/leads-cli.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { sentForLead, standInMessages } from "../support/postmark-standin.ts";

/**
 * The flood guard through the local runtime, for what only it shows: past the day's e-mail limit a brief filed through
 * netlify dev is answered with the same 201, held in the local store, the alert reaches Postmark's stand-in once that
 * day, the delivery job (netlify dev's scheduled function) sends neither it nor the lead, and `npm run leads` lists held
 * leads by address (127.0.0.1, as the front hands it) and grant and releases them. The runtime runs with the default
 * limit, so the test moves the day's counter to the limit rather than filing 50 briefs, and puts it back after.
 * tests/store/held-leads.test.ts has every kind of hold (a grant's share, an address's, the contact form's, the day's)
 * and its alert, over the local store and real Redis.
 */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const leads = (...args: string[]) => leadsCli(inject("dataDir"), ...args);

/** LEADS_EMAIL_DAILY_LIMIT's default: tests/support/global-runtime.ts does not set it. */
const dailyLimit = 50;
const emailedOn = (day: string) => `leads:emailed:${day}`;

let token: string;
let grant: string;
beforeAll(async () => {
  const machine = await clientCredentialsToken(base, "svc:brief");
  token = machine.token;
  grant = clientGrantId(machine.clientId);
});

const post = (body: object) =>
  fetch(`${base}/api/v1/briefs`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const sent = async () => (await standInMessages(postmark)).sent;
const sentFor = (leadId: string) => sentForLead(postmark, leadId);
const heldAlerts = async () => (await sent()).filter((m) => m.body.Tag === "leads-held");
const state = async (id: string) => (await store.get<Lead>(`lead:${id}`))?.delivery.state;
const headerNames = (res: Response) => [...res.headers.keys()].sort();

describe("past the day's e-mail limit", () => {
  let counters: { key: string; before: number | null }[] = [];
  afterAll(async () => {
    for (const counter of counters) {
      if (counter.before === null) await store.del(counter.key);
      else await store.set(counter.key, counter.before, { keepTtl: true });
    }
  });

  it("files with the same 201 but holds the lead, alerts the studio once, and releases on request", async () => {
    const usual = await post(freshBrief());
    expect(usual.status).toBe(201);
    const usualBody = (await usual.json()) as Record<string, unknown> & { lead_id: string };
    await expect.poll(async () => (await sentFor(usualBody.lead_id)).length).toBe(1);

    // The counter is per UTC day: today's and tomorrow's, so that a brief filed after midnight meets the limit too.
    const days = [utcDay(Date.now()), utcDay(Date.now() + 86_400_000)];
    counters = await Promise.all(days.map(async (day) => ({ key: emailedOn(day), before: await store.get<number>(emailedOn(day)) })));
    for (const counter of counters) await store.set(counter.key, dailyLimit, { keepTtl: true });
    const alertsBefore = (await heldAlerts()).length;

    const brief = freshBrief();
    const res = await post(brief);
    expect(res.status).toBe(201);
    expect(headerNames(res)).toEqual(headerNames(usual));
    const body = (await res.json()) as Record<string, unknown> & { lead_id: string; received_at: string };
    expect(Object.keys(body)).toEqual(Object.keys(usualBody));
    expect(body).toMatchObject({ status: "received", next_steps: expect.stringContaining(`reply by e-mail to ${brief.work_email}`) });
    const id = body.lead_id;

    await expect.poll(() => state(id)).toBe("held");
    expect(await store.zscore("leads:held", id)).not.toBeNull();
    expect(await store.zscore("leads:due", id)).toBeNull();
    await expect.poll(async () => (await heldAlerts()).length - alertsBefore).toBe(1);
    const alert = (await heldAlerts()).at(-1)!.body;
    expect(alert).toMatchObject({ To: "leads@studio.example", From: "website@studio.example" });
    expect(alert.TextBody).toContain("npm run leads -- release");
    expect(await sentFor(id)).toHaveLength(0);

    // A second one is held too, and neither it nor the delivery job sends a second alert that day (the next UTC day,
    // had midnight passed in between, owes its own).
    const secondBody = (await (await post(freshBrief())).json()) as { lead_id: string; received_at: string };
    const second = secondBody.lead_id;
    const alertsOwed = new Set([body.received_at, secondBody.received_at].map((at) => utcDay(Date.parse(at)))).size;
    await expect.poll(() => state(second)).toBe("held");
    expect((await fetch(`${base}/.netlify/functions/deliver-leads`, { method: "POST", body: "{}" })).status).toBe(200);
    await expect.poll(async () => (await heldAlerts()).length - alertsBefore).toBe(alertsOwed);

    const list = await leads();
    expect(list.code).toBe(0);
    expect(list.out.split("\n").find((line) => line.startsWith(id))).toMatch(/held/);
    // `held` says where each held lead came from: its address and its grant, and how many came from each address.
    const held = await leads("held");
    expect(held.out.split("\n").find((line) => line.startsWith(id))).toMatch(new RegExp(`^${id} .* 127\\.0\\.0\\.1 +${grant} `));
    expect(held.out).toMatch(/^From 127\.0\.0\.1: \d+ \(/m);

    const released = await leads("release", id);
    expect(released.out).toContain(`${id}: delivered`);
    expect(await sentFor(id)).toHaveLength(1);
    expect(await state(id)).toBe("delivered");
    expect(await state(second)).toBe("held");

    const all = await leads("release", "--all");
    expect(all.out).toContain(`${second}: delivered`);
    expect(await sentFor(second)).toHaveLength(1);

    // Released leads do not count against the day's limit, and the alert stayed single.
    for (const counter of counters) expect(await store.get<number>(counter.key)).toBe(dailyLimit);
    expect((await heldAlerts()).length - alertsBefore).toBe(alertsOwed);
  });
});
