import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { attemptDelivery, deliverDue } from "../../src/briefs/deliver.ts";
import { emailShares, heldReasons, type HeldAlert } from "../../src/briefs/held.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import type { PipelineDeps } from "../../src/briefs/pipeline.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { freshBrief, pipelineDeps, standInMailer, fileBody, type Filed } from "../support/briefs.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "../support/postmark-standin.ts";
import { realRedisAvailable, startRedisGateway } from "../support/upstash-gateway.ts";
import { nodeRedis } from "../support/node-redis.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The flood guard in-process, over the local store and real Redis, with an injected clock: LEADS_EMAIL_DAILY_LIMIT leads
 * a UTC day are e-mailed, no source more than its share of them, later ones are recorded but held, one alert a day for
 * each kind of hold (a grant's or the contact form's share, an address's, the day's limit) says so and names the source,
 * and release e-mails them.
 */
const dir = await storeFolder("frontdoor-held-");
type Store = { url: string; token: string; close(): Promise<void> };
const stores: [string, () => Promise<Store>][] = [
  ["local store", () => startLocalStore({ token: "t", snapshotFile: join(dir, `${randomUUID()}.json`) })],
];
if (await realRedisAvailable()) stores.push(["real Redis", () => startRedisGateway(9)]);
afterAll(() => rm(dir, { recursive: true, force: true }));

let addresses = 0;
/** An address no other filing in this file used: 10.<n>.<n>.<n>. */
const freshAddress = () => {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

const filed = (r: Filed) => {
  if (r.kind !== "filed" || !("lead" in r)) throw new Error(`expected a filed brief, got ${r.kind}`);
  return r.lead;
};

describe.each(stores)("the day's e-mail limit (%s)", (_name, start) => {
  let store: Store;
  let redis: Redis;
  let postmark: PostmarkStandIn;
  let clock: number;
  const deps = (overrides: Partial<PipelineDeps> = {}) =>
    pipelineDeps(store, standInMailer(postmark), { now: () => clock, dailyEmailLimit: 2, ...overrides });
  /** A brief from a source of its own (a new grant from a new address) unless one is given. */
  const file = (d: PipelineDeps, extra: Record<string, unknown> = {}, from: { owner?: string; address?: string } = {}) =>
    fileBody(
      {
        body: freshBrief(extra),
        channel: "rest",
        clientId: `client-${randomUUID()}`,
        owner: from.owner ?? consentGrantId(),
        address: from.address ?? freshAddress(),
      },
      d,
    );
  /** The contact form, whose owner is `form:<ip>`. */
  const fileForm = (d: PipelineDeps, ip: string) =>
    fileBody({ body: freshBrief(), channel: "form", clientId: `form:${ip}`, owner: `form:${ip}`, address: ip }, d);
  const emailedFrom = (field: string) => redis.hget<number>("leads:emailed:2031-03-14:sources", field);
  const heldFrom = (field: string) => redis.hget<number>("leads:held:2031-03-14:sources", field);
  const leadMails = (id: string) => postmark.sent.filter((m) => (m.body.Metadata as { lead_id?: string }).lead_id === id);
  const alerts = () => postmark.sent.filter((m) => m.body.Tag === "leads-held");
  const alertIds = () => alerts().map((m) => (m.body.Metadata as { alert_id: string }).alert_id);
  const stored = async (id: string) => (await redis.get<Lead>(`lead:${id}`))!.delivery.state;

  beforeAll(async () => {
    postmark = await startPostmarkStandIn("postmark-test-token", 1_500);
  });
  afterAll(() => postmark.close());
  beforeEach(async () => {
    // A fresh store each test: `leads:held` is one set for all days.
    store = await start();
    redis = nodeRedis(store);
    postmark.sent.length = 0;
    clock = Date.parse("2031-03-14T10:00:00Z");
  });
  afterEach(() => store.close());

  it("e-mails the day's first leads up to the limit, then records the rest as held with the same result", async () => {
    const d = deps();
    const first = filed(await file(d));
    const second = filed(await file(d));
    const third = filed(await file(d));
    expect([first, second].map((l) => l.delivery.state)).toEqual(["pending", "pending"]);
    expect(third.delivery.state).toBe("held");
    expect(await stored(first.id)).toBe("delivered");
    expect(await stored(third.id)).toBe("held");
    expect(await redis.zrange("leads:held", 0, -1)).toEqual([third.id]);
    expect(await redis.zscore("leads:due", third.id)).toBeNull();
    expect(await redis.zscore("leads", third.id)).toBe(clock);
    expect(await redis.get("leads:emailed:2031-03-14")).toBe(2);
    expect(await redis.ttl("leads:emailed:2031-03-14")).toBeGreaterThan(86_400);
    expect(leadMails(third.id)).toHaveLength(0);
    expect(leadMails(first.id)).toHaveLength(1);

    expect(alerts()).toHaveLength(1);
    const alert = alerts()[0]!.body;
    expect(alert).toMatchObject({ To: "leads@studio.example", Metadata: { alert_id: "leads-held-2031-03-14-day" } });
    expect(alert.Subject).toBe("Leads held on 2031-03-14 (UTC), 1 so far: the day's limit reached, every lead held");
    expect(alert.TextBody).toContain("(2 a day)");
    expect(alert.TextBody).toContain("npm run leads -- release --all");

    // The scheduled job never e-mails a held lead, nor does an attempt aimed at it.
    await deliverDue({ ...d, now: () => clock + 86_400_000 });
    expect(await attemptDelivery(third.id, d)).toBe("done");
    expect(leadMails(third.id)).toHaveLength(0);
    expect(alerts()).toHaveLength(1);
  });

  it("counts each UTC day on its own: a new day e-mails again and alerts again", async () => {
    const d = deps({ dailyEmailLimit: 1 });
    clock = Date.parse("2031-03-14T23:59:59.999Z");
    expect(filed(await file(d)).delivery.state).toBe("pending");
    expect(filed(await file(d)).delivery.state).toBe("held");
    clock += 1;
    const nextDay = filed(await file(d));
    expect(nextDay.received_at).toBe("2031-03-15T00:00:00.000Z");
    expect(nextDay.delivery.state).toBe("pending");
    expect(filed(await file(d)).delivery.state).toBe("held");
    expect(alertIds()).toEqual(["leads-held-2031-03-14-day", "leads-held-2031-03-15-day"]);
    // The second day's alert counts that day's held lead, and both days' together.
    expect(alerts()[1]!.body.TextBody).toContain("Held from 2031-03-15 so far: 1. Held in all, waiting for release: 2.");
  });

  it("sends one alert a day for the day's limit however many leads are held at once, and a limit of 0 holds them all", async () => {
    const d = deps({ dailyEmailLimit: 0 });
    const results = await Promise.all(Array.from({ length: 12 }, () => file(d)));
    expect(results.map((r) => filed(r).delivery.state)).toEqual(Array(12).fill("held"));
    expect(await redis.zcard("leads:held")).toBe(12);
    expect(alerts()).toHaveLength(1);
    expect(alerts()[0]!.body.TextBody).toContain("LEADS_EMAIL_DAILY_LIMIT is 0");
    expect(await redis.get("leads:emailed:2031-03-14")).toBeNull();
    await Promise.all(Array.from({ length: 5 }, () => deliverDue({ ...d, now: () => clock + 3_600_000 })));
    expect(alerts()).toHaveLength(1);
    expect(await redis.get<HeldAlert>("leads:alert:2031-03-14:day")).toMatchObject({ delivery: { state: "delivered", attempts: 1 } });
  });

  it("retries a failed alert through the delivery job, and never sends it twice", async () => {
    const d = deps({ dailyEmailLimit: 0 });
    postmark.fail("503");
    filed(await file(d));
    expect(alerts()).toHaveLength(0);
    const owed = await redis.get<HeldAlert>("leads:alert:2031-03-14:day");
    expect(owed?.delivery).toMatchObject({ state: "pending", attempts: 1, last_error: expect.stringContaining("503") });
    expect(await redis.zscore("leads:due", "leads:alert:2031-03-14:day")).toBe(clock + 60_000);

    // Postmark takes the next one but its answer is lost: the following run finds it instead of sending again.
    postmark.fail("accept-then-drop");
    expect(await deliverDue({ ...d, now: () => clock + 60_000 })).toMatchObject({ retry: 1 });
    expect(alerts()).toHaveLength(1);
    expect(await deliverDue({ ...d, now: () => clock + 3_600_000 })).toMatchObject({ delivered: 1 });
    expect(await deliverDue({ ...d, now: () => clock + 7_200_000 })).toMatchObject({ delivered: 0, retry: 0 });
    expect(alerts()).toHaveLength(1);
    expect(await redis.zscore("leads:due", "leads:alert:2031-03-14:day")).toBeNull();
    // A later held lead the same day owes no new alert.
    filed(await file(d));
    expect(alerts()).toHaveLength(1);
  });

  it("releases one held lead and then all of them, e-mailing each once without counting against the day", async () => {
    const d = deps({ dailyEmailLimit: 0 });
    const held = [];
    for (let i = 0; i < 3; i++) {
      held.push(filed(await file(d)));
      clock += 1000;
    }
    const [one, ...rest] = held;
    const releases = await Promise.all([d.store.release(one!, clock), d.store.release(one!, clock)]);
    expect(releases.sort()).toEqual([false, true]);
    expect(await stored(one!.id)).toBe("pending");
    expect(await redis.zscore("leads:due", one!.id)).toBe(clock);
    expect(await attemptDelivery(one!.id, d)).toBe("delivered");
    expect(leadMails(one!.id)).toHaveLength(1);
    expect(await d.store.release(one!, clock)).toBe(false);

    expect(await d.store.heldIds()).toEqual(rest.map((l) => l.id));
    for (const lead of rest) {
      expect(await d.store.release(lead, clock)).toBe(true);
      expect(await attemptDelivery(lead.id, d)).toBe("delivered");
    }
    expect(rest.map((l) => leadMails(l.id).length)).toEqual([1, 1]);
    expect(await d.store.heldIds()).toEqual([]);
    expect(await redis.get("leads:emailed:2031-03-14")).toBeNull();
    await deliverDue({ ...d, now: () => clock + 86_400_000 });
    expect(held.map((l) => leadMails(l.id).length)).toEqual([1, 1, 1]);
  });

  it("holds an address past its share while every other source is still e-mailed, and the alert names the address", async () => {
    const d = deps({ dailyEmailLimit: 20 });
    const shares = emailShares(20);
    expect(shares).toEqual({ address: 10, owner: 2 });
    const flood = "203.0.113.9";
    // Grants cost nothing: each brief of the flood comes with a new one, so only the address's share stops it.
    const leads = [];
    for (let i = 0; i < shares.address + 2; i++) leads.push(filed(await file(d, {}, { address: flood })));
    expect(leads.map((l) => l.delivery.state)).toEqual([...Array(shares.address).fill("pending"), "held", "held"]);
    expect((await d.store.get(leads[0]!.id))?.address).toBe(flood);

    // Others keep being e-mailed at once: the day has e-mailed 10 of its 20.
    const other = filed(await file(d));
    expect(other.delivery.state).toBe("pending");
    expect(leadMails(other.id)).toHaveLength(1);
    expect(await redis.get("leads:emailed:2031-03-14")).toBe(shares.address + 1);
    expect(await emailedFrom(`address:${flood}`)).toBe(shares.address);
    expect(await heldFrom(`address:${flood}`)).toBe(2);
    expect(await redis.ttl("leads:emailed:2031-03-14:sources")).toBeGreaterThan(86_400);
    expect(await redis.ttl("leads:held:2031-03-14:sources")).toBeGreaterThan(2 * 86_400);

    expect(alerts()).toHaveLength(1);
    const alert = alerts()[0]!.body;
    expect(alert.Subject).toBe(`Leads held on 2031-03-14 (UTC), 1 so far: the address ${flood} past its share`);
    expect(alert.TextBody).toContain(`Leads filed from the address ${flood} are being held: one address`);
    expect(alert.TextBody).toContain("may have at most 10 of the 20 leads a day");
    // Counted when the alert went out: the first held lead was its only one then.
    expect(alert.TextBody).toContain("Held from that address on 2031-03-14 so far: 1. Held from 2031-03-14 so far: 1.");
    expect(await redis.get<HeldAlert>("leads:alert:2031-03-14:address")).toMatchObject({ reason: "address", address: flood });
    for (const lead of [...leads, other]) {
      expect(alert.TextBody).not.toContain(lead.brief.work_email);
      expect(alert.TextBody).not.toContain(lead.brief.company_name);
    }

    // A released lead is e-mailed without counting against its source's share: the next one is still held.
    const released = leads.at(-1)!;
    expect(await d.store.release(released, clock)).toBe(true);
    expect(await attemptDelivery(released.id, d)).toBe("delivered");
    expect(await emailedFrom(`address:${flood}`)).toBe(shares.address);
    expect(await heldFrom(`address:${flood}`)).toBe(1);
    expect(filed(await file(d, {}, { address: flood })).delivery.state).toBe("held");
    expect(await heldFrom(`address:${flood}`)).toBe(2);
    expect(alerts()).toHaveLength(1);
  });

  it("holds one grant, and the contact form from one address, past their share while the address's other grants are e-mailed", async () => {
    const d = deps({ dailyEmailLimit: 20 });
    const address = "192.0.2.44";
    const looping = consentGrantId();
    const states = [];
    for (let i = 0; i < 3; i++) states.push(filed(await file(d, {}, { owner: looping, address })).delivery.state);
    expect(states).toEqual(["pending", "pending", "held"]);
    // Another person behind the same egress address is not held for it.
    expect(filed(await file(d, {}, { address })).delivery.state).toBe("pending");
    const form = [];
    for (let i = 0; i < 3; i++) form.push(filed(await fileForm(d, address)).delivery.state);
    expect(form).toEqual(["pending", "pending", "held"]);
    expect(await emailedFrom(`owner:${looping}`)).toBe(2);
    expect(await emailedFrom(`owner:form:${address}`)).toBe(2);
    expect(await emailedFrom(`address:${address}`)).toBe(5);
    expect(await heldFrom(`owner:${looping}`)).toBe(1);
    expect(await heldFrom(`address:${address}`)).toBe(2);

    // A second owner held for its share the same day gets no alert of its own: only the first of each kind does.
    expect(alerts()).toHaveLength(1);
    const alert = alerts()[0]!.body;
    expect(alert.Subject).toBe(`Leads held on 2031-03-14 (UTC), 1 so far: the grant ${looping} at ${address} past its share`);
    expect(alert.TextBody).toContain(`Leads filed with the grant ${looping} from the address ${address} are being held`);
    expect(alert.TextBody).toContain("Held from that grant on 2031-03-14 so far: 1.");
  });

  it("names the contact form when it is the first source held", async () => {
    const d = deps({ dailyEmailLimit: 10 });
    expect(filed(await fileForm(d, "192.0.2.80")).delivery.state).toBe("pending");
    expect(filed(await fileForm(d, "192.0.2.80")).delivery.state).toBe("held");
    expect(alerts()[0]!.body.Subject).toBe("Leads held on 2031-03-14 (UTC), 1 so far: the contact form at 192.0.2.80 past its share");
    expect(alerts()[0]!.body.TextBody).toContain("Leads sent through the contact form from the address 192.0.2.80 are being held");
  });

  it("keeps every share exact when a flood, a looping grant and other sources file at once", async () => {
    const d = deps({ dailyEmailLimit: 20 });
    const flood = "203.0.113.10";
    const loop = { owner: consentGrantId(), address: "203.0.113.11" };
    const [fromFlood, fromLoop, others] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => file(d, {}, { address: flood }))),
      Promise.all(Array.from({ length: 10 }, () => file(d, {}, loop))),
      Promise.all(Array.from({ length: 8 }, () => file(d))),
    ]);
    const pending = (results: Filed[]) => results.filter((r) => filed(r).delivery.state === "pending").length;
    expect([pending(fromFlood), pending(fromLoop), pending(others)]).toEqual([10, 2, 8]);
    expect(await redis.get("leads:emailed:2031-03-14")).toBe(20);
    expect(await emailedFrom(`address:${flood}`)).toBe(10);
    expect(await emailedFrom(`owner:${loop.owner}`)).toBe(2);
    expect(await heldFrom(`address:${flood}`)).toBe(30);
    expect(await heldFrom(`owner:${loop.owner}`)).toBe(8);
    expect(await redis.zcard("leads:held")).toBe(38);
    // Every lead in exactly one of the two queues' outcomes: e-mailed once, or held and never e-mailed.
    await deliverDue({ ...d, now: () => clock + 3_600_000 }, 100);
    for (const lead of [...fromFlood, ...fromLoop, ...others].map(filed))
      expect([lead.delivery.state, leadMails(lead.id).length]).toEqual(lead.delivery.state === "pending" ? ["pending", 1] : ["held", 0]);
    // Which kinds held a lead depends on the order the filings ran in (the flood's first held lead may come before or
    // after the day's 20th e-mail, held for its address or for the day): one alert for each kind that did, and no more.
    const claimed = [];
    for (const kind of heldReasons) if ((await redis.exists(`leads:alert:2031-03-14:${kind}`)) === 1) claimed.push(kind);
    expect(claimed.length).toBeGreaterThan(0);
    expect(alertIds().sort()).toEqual(claimed.map((kind) => `leads-held-2031-03-14-${kind}`).sort());

    // Releasing all of them at once e-mails each once, and the held counts end at nothing.
    const held = await d.store.heldIds();
    const leadsHeld = await Promise.all(held.map(async (id) => (await d.store.get(id))!));
    expect(
      (await Promise.all(leadsHeld.flatMap((l) => [d.store.release(l, clock), d.store.release(l, clock)]))).filter(Boolean),
    ).toHaveLength(38);
    expect(await redis.exists("leads:held:2031-03-14:sources")).toBe(0);
    await deliverDue({ ...d, now: () => clock + 7_200_000 }, 100);
    expect(held.map((id) => leadMails(id).length)).toEqual(Array(38).fill(1));
    expect(await redis.get("leads:emailed:2031-03-14")).toBe(20);
  });

  it("reads the counts an alert reports as one snapshot while leads are being held: a source's never above the day's, the day's never above all", async () => {
    const d = deps({ dailyEmailLimit: 0 });
    const loop = { owner: consentGrantId(), address: freshAddress() };
    const reads: { today: number; all: number; fromSource?: number }[] = [];
    await Promise.all([
      // Ten: a grant's brief quota for the hour.
      ...Array.from({ length: 10 }, () => file(d, {}, loop)),
      ...Array.from({ length: 40 }, async () => reads.push(await d.store.heldCounts("2031-03-14", `owner:${loop.owner}`))),
    ]);
    for (const read of reads) expect(read.fromSource! <= read.today && read.today <= read.all, JSON.stringify(read)).toBe(true);
    expect(await d.store.heldCounts("2031-03-14", `owner:${loop.owner}`)).toEqual({ today: 10, all: 10, fromSource: 10 });
  });

  it("keeps the day's limit exact when many sources file past it at once", async () => {
    const d = deps({ dailyEmailLimit: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, () => file(d)));
    expect(results.filter((r) => filed(r).delivery.state === "pending")).toHaveLength(5);
    expect(await redis.get("leads:emailed:2031-03-14")).toBe(5);
    expect(alerts()).toHaveLength(1);
    expect(alerts()[0]!.body.Subject).toMatch(/^Leads held on 2031-03-14 \(UTC\), \d+ so far: the day's limit reached, every lead held$/);
    expect(alerts()[0]!.body.TextBody).toContain("More briefs arrived on 2031-03-14 (UTC) than LEADS_EMAIL_DAILY_LIMIT lets through");
  });

  it("alerts once for each wider kind of hold: a grant past its share, then its address, then the day's limit filled by a second address", async () => {
    const d = deps({ dailyEmailLimit: 20 });
    const first = "203.0.113.20";
    const second = "198.51.100.20";
    const all: Lead[] = [];
    const fileFrom = async (from: { owner?: string; address?: string }) => {
      const lead = filed(await file(d, {}, from));
      all.push(lead);
      return lead.delivery.state;
    };

    // A decoy grant past its share: the first alert, about that grant only.
    const decoy = consentGrantId();
    expect([await fileFrom({ owner: decoy, address: first }), await fileFrom({ owner: decoy, address: first })]).toEqual([
      "pending",
      "pending",
    ]);
    expect(await fileFrom({ owner: decoy, address: first })).toBe("held");
    expect(alertIds()).toEqual(["leads-held-2031-03-14-owner"]);
    expect(alerts()[0]!.body.TextBody).toContain(`Leads filed with the grant ${decoy} from the address ${first} are being held`);

    // Four other grants fill the address's share: another person's lead from it is held, and the studio hears of it.
    for (let i = 0; i < 4; i++) {
      const grant = consentGrantId();
      expect([await fileFrom({ owner: grant, address: first }), await fileFrom({ owner: grant, address: first })]).toEqual([
        "pending",
        "pending",
      ]);
    }
    expect(await emailedFrom(`address:${first}`)).toBe(10);
    expect(await fileFrom({ address: first })).toBe("held");
    expect(alertIds()).toEqual(["leads-held-2031-03-14-owner", "leads-held-2031-03-14-address"]);
    const address = alerts()[1]!.body;
    expect(address.Subject).toBe(`Leads held on 2031-03-14 (UTC), 2 so far: the address ${first} past its share`);
    expect(address.TextBody).toContain(`Leads filed from the address ${first} are being held`);
    expect(address.TextBody).toContain("Leads from every other address are still e-mailed as they arrive");
    // The decoy's held lead came from that address too.
    expect(address.TextBody).toContain("Held from that address on 2031-03-14 so far: 2.");
    // The contact form from that address is held for the same reason: no new alert.
    expect(filed(await fileForm(d, first)).delivery.state).toBe("held");
    expect(alerts()).toHaveLength(2);

    // A second address uses the rest of the day, one grant a brief: never past its own share, but the day is then full.
    for (let i = 0; i < 10; i++) expect(await fileFrom({ address: second })).toBe("pending");
    expect(await redis.get("leads:emailed:2031-03-14")).toBe(20);
    expect(await fileFrom({})).toBe("held");
    expect(alertIds()).toEqual(["leads-held-2031-03-14-owner", "leads-held-2031-03-14-address", "leads-held-2031-03-14-day"]);
    const day = alerts()[2]!.body;
    expect(day.Subject).toBe("Leads held on 2031-03-14 (UTC), 4 so far: the day's limit reached, every lead held");
    expect(day.TextBody).toContain("none is e-mailed until you release it, or until the next UTC day (2031-03-15) begins");
    expect(day.TextBody).toContain(`The addresses whose leads were e-mailed most on 2031-03-14: ${second} (10), ${first} (10).`);
    expect(await redis.get<HeldAlert>("leads:alert:2031-03-14:day")).toMatchObject({ reason: "day", id: "leads-held-2031-03-14-day" });

    // Past that, every source is held for the day, and there is nothing new to tell: three alerts stay three.
    for (const from of [{ address: second }, { address: first }, { owner: decoy, address: first }, {}])
      expect(await fileFrom(from)).toBe("held");
    expect(filed(await fileForm(d, "192.0.2.20")).delivery.state).toBe("held");
    await deliverDue({ ...d, now: () => clock + 86_400_000 });
    expect(alerts()).toHaveLength(3);
    for (const alert of alerts())
      for (const lead of all) {
        expect(alert.body.TextBody).not.toContain(lead.brief.work_email);
        expect(alert.body.TextBody).not.toContain(lead.brief.company_name);
      }
  });

  it("sends exactly one alert for each kind however many concurrent filings cross its threshold", async () => {
    const d = deps({ dailyEmailLimit: 20 });
    const address = "203.0.113.30";
    const looping = consentGrantId();
    const states = async (filings: Promise<Filed>[]) =>
      (await Promise.all(filings)).map((r) => filed(r).delivery.state).filter((state) => state === "pending").length;

    // One grant's 10 at once: 2 e-mailed, 8 held for its share, one alert.
    expect(await states(Array.from({ length: 10 }, () => file(d, {}, { owner: looping, address })))).toBe(2);
    expect(alertIds()).toEqual(["leads-held-2031-03-14-owner"]);
    // 30 grants from the same address at once: 8 more fill its share, 22 held for it, one alert more.
    expect(await states(Array.from({ length: 30 }, () => file(d, {}, { address })))).toBe(8);
    expect(alertIds()).toEqual(["leads-held-2031-03-14-owner", "leads-held-2031-03-14-address"]);
    // 30 other addresses at once: 10 fill the day, 20 held for it, one alert more.
    expect(await states(Array.from({ length: 30 }, () => file(d)))).toBe(10);
    expect(alertIds()).toEqual(["leads-held-2031-03-14-owner", "leads-held-2031-03-14-address", "leads-held-2031-03-14-day"]);

    await Promise.all(Array.from({ length: 5 }, () => deliverDue({ ...d, now: () => clock + 3_600_000 }, 100)));
    expect(alerts()).toHaveLength(3);
    for (const kind of heldReasons)
      expect(await redis.get<HeldAlert>(`leads:alert:2031-03-14:${kind}`)).toMatchObject({ delivery: { state: "delivered", attempts: 1 } });
    expect(await redis.zcard("leads:held")).toBe(50);
  });

  it("still delivers an alert owed under the one-a-day key of before, by its old name, and never twice", async () => {
    const d = deps({ dailyEmailLimit: 20 });
    const older: HeldAlert = {
      day: "2031-03-14",
      limit: 20,
      created_at: new Date(clock).toISOString(),
      delivery: { state: "sending", attempts: 1 },
      reason: "owner",
      address: "192.0.2.50",
      owner: consentGrantId(),
    };
    await redis.set("leads:alert:2031-03-14", JSON.stringify(older));
    await redis.zadd("leads:due", { score: clock, member: "leads:alert:2031-03-14" });
    expect(await deliverDue({ ...d, now: () => clock })).toMatchObject({ delivered: 1 });
    expect(alertIds()).toEqual(["leads-held-2031-03-14"]);
    expect(await redis.get<HeldAlert>("leads:alert:2031-03-14")).toMatchObject({ delivery: { state: "delivered" } });
    expect(await redis.zscore("leads:due", "leads:alert:2031-03-14")).toBeNull();
    await deliverDue({ ...d, now: () => clock + 3_600_000 });
    expect(alerts()).toHaveLength(1);
  });

  it("never counts a dry run", async () => {
    const d = deps({ dailyEmailLimit: 1 });
    for (let i = 0; i < 3; i++) expect((await file(d, { dry_run: true }, { address: "192.0.2.9" })).kind).toBe("dry_run");
    expect(await redis.get("leads:emailed:2031-03-14")).toBeNull();
    expect(await redis.exists("leads:emailed:2031-03-14:sources")).toBe(0);
    expect(filed(await file(d, {}, { address: "192.0.2.9" })).delivery.state).toBe("pending");
    expect(alerts()).toHaveLength(0);
  });
});
