import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { emailShares, utcDay } from "../../src/briefs/held.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { freshBrief } from "../support/briefs.ts";
import { form } from "../support/calls.ts";
import { leadsCli } from "../support/leads-cli.ts";
import { patience } from "../support/patience.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { sentForLead, standInMessages } from "../support/postmark-standin.ts";

/**
 * The flood guard through the local runtime: past its share of the day's e-mail, or past the day's limit, a brief is
 * still filed with the same 201, but held; the studio gets one alert a day for each kind of hold (a grant's share, an
 * address's, the day's limit); `npm run leads -- release` e-mails held leads. The runtime runs with the default limit, so a test moves a day's counter to where it is tested rather than
 * filing 50 briefs, and puts it back after. The local runtime gives every client the address 127.0.0.1, so a flood here
 * comes from one grant, or from the address once its count is moved; tests/store/held-leads.test.ts floods from one
 * address while another address files.
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

const post = (body: object, bearer = token) =>
  fetch(`${base}/api/v1/briefs`, {
    method: "POST",
    headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const file = async (bearer: string) => {
  const res = await post(freshBrief(), bearer);
  expect(res.status).toBe(201);
  return ((await res.json()) as { lead_id: string }).lead_id;
};
/** The contact form, as a browser on this site's page sends it; its owner is the form at 127.0.0.1. */
const fileForm = async () => {
  const res = await fetch(`${base}/contact`, form(freshBrief(), { Origin: new URL(base).origin }));
  expect(res.status).toBe(200);
  return /Reference: (lead_[A-Za-z0-9_-]+)/.exec(await res.text())![1]!;
};
const sent = async () => (await standInMessages(postmark)).sent;
const sentFor = (leadId: string) => sentForLead(postmark, leadId);
const heldAlerts = async () => (await sent()).filter((m) => m.body.Tag === "leads-held");
const state = async (id: string) => (await store.get<Lead>(`lead:${id}`))?.delivery.state;
const headerNames = (res: Response) => [...res.headers.keys()].sort();

/** Today's keys a test changes, put back as they were when it ends: a string (value and expiry), or one field of a hash. */
async function keptAside(keys: string[], fields: [hash: string, field: string][] = []) {
  const strings = await Promise.all(keys.map(async (key) => ({ key, value: await store.get<unknown>(key), ttl: await store.pttl(key) })));
  const hashFields = await Promise.all(
    fields.map(async ([hash, field]) => ({ hash, field, value: await store.hget<number>(hash, field) })),
  );
  return async () => {
    for (const { key, value, ttl } of strings) {
      if (value === null) await store.del(key);
      else await store.set(key, value, ttl > 0 ? { px: ttl } : {});
    }
    for (const { hash, field, value } of hashFields) {
      if (value === null) await store.hdel(hash, field);
      else await store.hset(hash, { [field]: value });
    }
  };
}

/**
 * Waits out the end of a UTC day when less than a patience of it is left, so that everything a test counts falls on one
 * day: the day's turn is the event waited for, and a test that took a patience would be hung.
 */
async function clearOfMidnight() {
  const left = 86_400_000 - (Date.now() % 86_400_000);
  if (left < patience) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

const { owner: grantShare, address: addressShare } = emailShares(dailyLimit);

describe("a flood from one source", () => {
  let putBack = async () => {};
  afterAll(() => putBack());

  it("holds one grant's leads past its share while another's are e-mailed and names it, then alerts again when the address's share is filled by other grants", async () => {
    await clearOfMidnight();
    const day = utcDay(Date.now());
    const sources = `leads:emailed:${day}:sources`;
    // Each kind's alert is owed by this test's first lead held for it, whatever another test held today.
    const alertKeys = ["owner", "address", "day"].map((kind) => `leads:alert:${day}:${kind}`);
    putBack = await keptAside([...alertKeys, emailedOn(day)], [[sources, "address:127.0.0.1"]]);
    await store.del(...alertKeys, emailedOn(day));
    await store.hdel(sources, "address:127.0.0.1");
    const alertsBefore = (await heldAlerts()).length;
    const heldBefore = Number((await store.hget<number>(`leads:held:${day}:sources`, "address:127.0.0.1")) ?? 0);
    const newAlerts = async () => (await heldAlerts()).slice(alertsBefore).map((m) => m.body);

    const flooder = await clientCredentialsToken(base, "svc:brief");
    const flooding = clientGrantId(flooder.clientId);
    const other = (await clientCredentialsToken(base, "svc:brief")).token;

    const within: string[] = [];
    for (let i = 0; i < grantShare; i++) within.push(await file(flooder.token));
    for (const id of within) await expect.poll(async () => (await sentFor(id)).length).toBe(1);

    // Past the grant's share: the same 201, recorded, held, not e-mailed.
    const over = await file(flooder.token);
    await expect.poll(() => state(over)).toBe("held");
    expect(await store.zscore("leads:due", over)).toBeNull();
    expect(await sentFor(over)).toHaveLength(0);

    // Another grant from the same address is e-mailed at once: the day's budget is far from used.
    const others = await file(other);
    await expect.poll(async () => (await sentFor(others)).length).toBe(1);

    await expect.poll(async () => (await newAlerts()).length).toBe(1);
    const [first] = await newAlerts();
    expect(first!.Subject).toMatch(
      new RegExp(`^Leads held on ${day} \\(UTC\\), \\d+ so far: the grant ${flooding} at 127\\.0\\.0\\.1 past its share$`),
    );
    expect(first!.TextBody).toContain(`Leads filed with the grant ${flooding} from the address 127.0.0.1 are being held`);
    expect(first!.TextBody).toContain(`Held from that grant on ${day} so far: 1.`);
    expect(first!.TextBody).toContain("If a whole address's leads, or every lead, are held");
    expect(first!.TextBody).not.toContain("@engines.example");

    const held = await leads("held");
    expect(held.out.split("\n").find((line) => line.startsWith(over))).toMatch(new RegExp(`127\\.0\\.0\\.1 +${flooding} `));
    expect(held.out).toMatch(/^From 127\.0\.0\.1: \d+ \(/m);

    // Other grants from the address fill its share: counted here, as many grants filing within their own shares would
    // (tests/store/held-leads.test.ts files them, at once)...
    await store.hset(sources, { "address:127.0.0.1": addressShare });

    // ...so a new person's grant from it is held, and so is the contact form: the studio is told the address is held,
    // once, and that only other addresses are still e-mailed.
    const victim = await file((await clientCredentialsToken(base, "svc:brief")).token);
    await expect.poll(() => state(victim)).toBe("held");
    expect(await sentFor(victim)).toHaveLength(0);
    await expect.poll(async () => (await newAlerts()).length).toBe(2);
    const second = (await newAlerts())[1]!;
    expect(second.Subject).toMatch(new RegExp(`^Leads held on ${day} \\(UTC\\), \\d+ so far: the address 127\\.0\\.0\\.1 past its share$`));
    expect(second.TextBody).toContain(
      "Leads filed from the address 127.0.0.1 are being held: one address, every grant and the contact form",
    );
    expect(second.TextBody).toContain("Leads from every other address are still e-mailed as they arrive");
    // The grant's held lead came from the address too.
    expect(second.TextBody).toContain(`Held from that address on ${day} so far: ${heldBefore + 2}.`);
    expect(second.TextBody).not.toContain("@engines.example");

    const form = await fileForm();
    await expect.poll(() => state(form)).toBe("held");
    expect((await fetch(`${base}/.netlify/functions/deliver-leads`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(await newAlerts()).toHaveLength(2);

    for (const id of [over, victim, form]) expect((await leads("release", id)).out).toContain(`${id}: delivered`);
    expect(await sentFor(over)).toHaveLength(1);
    expect(await store.hget(sources, "address:127.0.0.1")).toBe(addressShare);
    expect(await newAlerts()).toHaveLength(2);
  });
});

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
