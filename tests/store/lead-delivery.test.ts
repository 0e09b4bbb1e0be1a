import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallNotice } from "../../src/briefs/call-notice.ts";
import { attemptCallNotice, attemptDelivery, attemptHeldAlert, deliverDue } from "../../src/briefs/deliver.ts";
import type { HeldAlert } from "../../src/briefs/held.ts";
import { newLeadId, type Delivery, type Lead } from "../../src/briefs/lead.ts";
import { leadMessage } from "../../src/briefs/mail.ts";
import { alertKey, callNoticeKey } from "../../src/briefs/store.ts";
import { postmarkMailer, type Mailer } from "../../src/briefs/mailer.ts";
import { freshBrief, pipelineDeps, standInMailer } from "../support/briefs.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "../support/postmark-standin.ts";
import { fileLocalStore } from "../support/file-store.ts";

/**
 * One delivery attempt of a lead's e-mail as its record tells it (src/briefs/deliver.ts), on the local store and a
 * clock of its own, e-mailing the Postmark stand-in: the state, attempts, error and next attempt each outcome leaves,
 * and the delivery job's counts. tests/resilience/postmark-faults.test.ts takes Postmark down under a whole deployment.
 */

const local = await fileLocalStore();
const { redis } = local;

let postmark: PostmarkStandIn;
beforeAll(async () => {
  postmark = await startPostmarkStandIn("postmark-test-token", 1_500);
});
afterAll(() => postmark.close());

const minute = 60_000;
let clock: number;
const alerts: string[] = [];
const deps = (mailer: Mailer = standInMailer(postmark)) => {
  const d = pipelineDeps(local, mailer, { now: () => clock });
  return { ...d, alert: (m: string) => alerts.push(m) };
};
const at = (ms: number) => new Date(ms).toISOString();

beforeEach(() => {
  clock = Date.parse("2031-05-06T10:00:00Z") + Math.floor(Math.random() * 1e9);
  alerts.length = 0;
});

/** A lead recorded as the pipeline records one, due now. */
async function recorded(delivery: Delivery = { state: "pending", attempts: 0 }): Promise<Lead> {
  const lead: Lead & { address: string } = {
    id: newLeadId(),
    received_at: at(clock),
    channel: "rest",
    client_id: "client-1",
    owner: `grant-${crypto.randomUUID()}`,
    address: `198.51.100.${Math.floor(Math.random() * 250)}`,
    brief: freshBrief() as Lead["brief"],
    delivery,
  };
  await deps().store.insert(lead, 1_000_000);
  if (delivery.state !== "pending") await deps().store.saveDelivery(lead);
  return lead;
}
const deliveryOf = async (lead: Lead) => (await deps().store.get(lead.id))!.delivery;
const due = async (lead: Lead, when: number) => (await redis.zrange<string[]>("leads:due", 0, when, { byScore: true })).includes(lead.id);
const sentFor = (lead: Lead) => postmark.sent.filter((m) => (m.body.Metadata as { lead_id?: string }).lead_id === lead.id);

describe("a lead's delivery attempt", () => {
  it("records the message Postmark took, and is done with it", async () => {
    const lead = await recorded();
    expect(await attemptDelivery(lead.id, deps())).toBe("delivered");
    const [sent] = sentFor(lead);
    expect(await deliveryOf(lead)).toEqual({ state: "delivered", attempts: 1, message_id: sent!.id, delivered_at: at(clock) });
    expect(await due(lead, clock + 365 * 86_400_000)).toBe(false);
    expect(await attemptDelivery(lead.id, deps())).toBe("done");
    expect(sentFor(lead)).toHaveLength(1);
  });

  it("tries again after 1, then 2 minutes while Postmark is down, then delivers, its error cleared", async () => {
    const lead = await recorded();
    postmark.fail("503", "503");
    expect(await attemptDelivery(lead.id, deps())).toBe("retry");
    expect(await deliveryOf(lead)).toEqual({
      state: "pending",
      attempts: 1,
      last_error: "503: Service Unavailable",
      next_attempt_at: at(clock + minute),
    });
    expect([await due(lead, clock + minute - 1), await due(lead, clock + minute)]).toEqual([false, true]);
    clock += minute;
    expect(await attemptDelivery(lead.id, deps())).toBe("retry");
    expect(await deliveryOf(lead)).toMatchObject({ attempts: 2, next_attempt_at: at(clock + 2 * minute) });
    clock += 2 * minute;
    expect(await attemptDelivery(lead.id, deps())).toBe("delivered");
    expect(await deliveryOf(lead)).toEqual({ state: "delivered", attempts: 3, message_id: sentFor(lead)[0]!.id, delivered_at: at(clock) });
  });

  it("marks a lead Postmark will never take failed, tells the operator, and never tries again", async () => {
    const lead = await recorded();
    postmark.fail("inactive-recipient");
    expect(await attemptDelivery(lead.id, deps())).toBe("failed");
    const { last_error } = await deliveryOf(lead);
    expect(last_error).toMatch(/^422 code 406: You tried to send to recipient\(s\) that have been marked as inactive/);
    expect(await deliveryOf(lead)).toEqual({ state: "failed", attempts: 1, last_error });
    expect(alerts).toEqual([
      `LEAD NOT DELIVERED: ${lead.id} from ${lead.brief.company_name} cannot be e-mailed (${last_error}). Run \`npm run leads\` to see it, fix the cause, then resend it.`,
    ]);
    expect(await due(lead, clock + 365 * 86_400_000)).toBe(false);
    expect(await attemptDelivery(lead.id, deps())).toBe("done");
  });

  it("finds the message an attempt whose answer was lost sent, and sends none again", async () => {
    const lead = await recorded();
    postmark.fail("accept-then-drop");
    // This attempt's client gives up after a second, before the stand-in's late answer (1.5 s): its answer is lost.
    const impatient = postmarkMailer({ token: postmark.token, apiUrl: postmark.url, timeoutSeconds: 1 });
    expect(await attemptDelivery(lead.id, deps(impatient))).toBe("retry");
    const [sent] = sentFor(lead);
    clock += minute;
    expect(await attemptDelivery(lead.id, deps())).toBe("delivered");
    // The lost answer's error stays on the record, beside the message found.
    expect(await deliveryOf(lead)).toEqual({
      state: "delivered",
      attempts: 1,
      message_id: sent!.id,
      delivered_at: at(clock),
      last_error: expect.stringMatching(/^0: /),
    });
    expect(sentFor(lead)).toHaveLength(1);
  });

  it("asks Postmark first after an attempt that died while sending", async () => {
    const lead = await recorded({ state: "sending", attempts: 0 });
    await standInMailer(postmark).send(leadMessage(lead, deps()));
    expect(await attemptDelivery(lead.id, deps())).toBe("delivered");
    expect(sentFor(lead)).toHaveLength(1);
    // Never asked before a first attempt: a new lead is sent without a search.
    const fresh = await recorded();
    const searching: Mailer = { ...standInMailer(postmark), findSent: () => Promise.reject(new Error("searched")) };
    expect(await attemptDelivery(fresh.id, deps(searching))).toBe("delivered");
  });

  it("leaves a lead another attempt holds, and a held one, alone", async () => {
    const lead = await recorded();
    expect(await deps().store.lock(lead.id, "another attempt")).toBe(true);
    expect(await attemptDelivery(lead.id, deps())).toBe("busy");
    const held = await recorded({ state: "held", attempts: 0 });
    expect(await attemptDelivery(held.id, deps())).toBe("done");
    expect([...sentFor(lead), ...sentFor(held)]).toEqual([]);
    expect(await attemptDelivery(newLeadId(), deps())).toBe("done");
  });
});

describe("what else is owed the studio", () => {
  const noticeOf = (leadId: string): CallNotice => ({
    booking_id: `bk_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
    lead_id: leadId,
    created_at: at(clock),
    start: at(clock + 86_400_000),
    end: at(clock + 86_400_000 + 1_800_000),
    time_zone: "Europe/London",
    studio_time_zone: "Europe/London",
    delivery: { state: "pending", attempts: 0 },
  });
  const noticesOf = (notice: CallNotice) =>
    postmark.sent.filter((m) => (m.body.Metadata as { booking_id?: string }).booking_id === notice.booking_id);

  it("holds a call notice a minute at a time until the lead's own e-mail has gone, then sends it in its thread", async () => {
    const lead = await recorded();
    const notice = noticeOf(lead.id);
    await deps().store.saveCallNotice(notice);
    const key = callNoticeKey(notice.booking_id);
    expect(await attemptCallNotice(key, deps())).toBe("retry");
    expect((await deps().store.getCallNotice(key))!.delivery).toEqual({
      state: "pending",
      attempts: 0,
      next_attempt_at: at(clock + minute),
    });
    expect(noticesOf(notice)).toEqual([]);
    expect(await attemptDelivery(lead.id, deps())).toBe("delivered");
    expect(await attemptCallNotice(key, deps())).toBe("delivered");
    expect(noticesOf(notice).map((m) => m.body.Subject)).toEqual([`Re: New brief: ${lead.brief.company_name} (${lead.brief.full_name})`]);
  });

  it("tells the operator of a notice or an alert Postmark will never take", async () => {
    const notice = noticeOf(newLeadId());
    await deps().store.saveCallNotice(notice);
    postmark.fail("sender-signature", "sender-signature", "sender-signature");
    expect(await attemptCallNotice(callNoticeKey(notice.booking_id), deps())).toBe("failed");
    const day = at(clock).slice(0, 10);
    const owed = (reason?: "address"): HeldAlert => ({
      day,
      limit: 2,
      created_at: at(clock),
      delivery: { state: "pending", attempts: 0 },
      ...(reason ? { reason, address: "198.51.100.7" } : {}),
    });
    await deps().store.saveAlert(alertKey(day, "address"), owed("address"));
    await deps().store.saveAlert(`leads:alert:${day}`, owed());
    expect(await attemptHeldAlert(alertKey(day, "address"), deps())).toBe("failed");
    expect(await attemptHeldAlert(`leads:alert:${day}`, deps())).toBe("failed");
    const reason = "422 code 400: The 'From' address you supplied is not a Sender Signature on your account.";
    expect(alerts).toEqual([
      `CALL NOTICE NOT DELIVERED: the e-mail that a call was booked (${notice.booking_id}) for lead ${notice.lead_id} cannot be sent (${reason}); Cal.com has the booking. Run \`npm run leads -- bookings\` to see it.`,
      `HELD-LEADS ALERT NOT DELIVERED: the e-mail saying that leads are held (address) since ${day} cannot be sent (${reason}). Run \`npm run leads\` to see them.`,
      `HELD-LEADS ALERT NOT DELIVERED: the e-mail saying that leads are held (day) since ${day} cannot be sent (${reason}). Run \`npm run leads\` to see them.`,
    ]);
  });
});

describe("the delivery job", () => {
  it("counts what became of each due e-mail; one that throws stays due, and the operator hears of it", async () => {
    await redis.del("leads:due");
    const [a, b] = [await recorded(), await recorded()];
    const broken: Mailer = { ...standInMailer(postmark), send: () => Promise.reject(new Error("mailer broke")) };
    expect(await deliverDue(deps(broken))).toEqual({ delivered: 0, retry: 2, failed: 0, busy: 0, done: 0 });
    expect(alerts.sort()).toEqual(
      [`delivery of ${a.id} interrupted: Error: mailer broke`, `delivery of ${b.id} interrupted: Error: mailer broke`].sort(),
    );
    expect(await due(a, clock)).toBe(true);
    // One at a time when asked for one: the other waits for the next run.
    expect(await deliverDue(deps(), 1)).toEqual({ delivered: 1, retry: 0, failed: 0, busy: 0, done: 0 });
    expect(await deliverDue(deps())).toEqual({ delivered: 1, retry: 0, failed: 0, busy: 0, done: 0 });
    expect(await deliverDue(deps())).toEqual({ delivered: 0, retry: 0, failed: 0, busy: 0, done: 0 });
  });
});
