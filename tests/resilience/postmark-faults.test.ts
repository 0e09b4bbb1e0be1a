import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { deliverDue } from "../../src/briefs/deliver.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { freshBrief } from "../support/briefs.ts";
import type { Fault as PostmarkFault } from "../support/postmark-standin.ts";
import { answered, json } from "../support/calls.ts";
import { redisDatabase } from "./support/databases.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * Postmark down, slow, failing, rate-limiting, refusing and accepting-then-dropping, under POST /api/v1/briefs as the
 * function runs it and the scheduled delivery job (functions/deliver-leads.ts) as Netlify runs it every minute. A brief
 * is always accepted and recorded before the answer, e-mailed exactly once when Postmark recovers, and a permanent
 * refusal ends as `failed` with a LEAD NOT DELIVERED line for the operator.
 */
let d: Deployment;
beforeAll(async () => {
  d = await startDeployment(redisDatabase["postmark-faults"]);
});
afterAll(async () => {
  await d.settle();
  await d.close();
});
let alerts: string[];
beforeEach(() => {
  alerts = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void alerts.push(args.map(String).join(" ")));
  return async () => {
    vi.restoreAllMocks();
    await d.mail.set(undefined);
  };
});

const later = (minutes: number) => () => Date.now() + minutes * 60_000;
/** One run of the scheduled delivery job, `minutes` from now, built from the environment as the function builds it. */
const deliveryRun = (minutes: number) => deliverDue({ ...d.deliveryJob(), now: later(minutes) });
const sentFor = (id: string) => d.postmark.sent.filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === id).length;
const delivery = async (id: string) => (await d.leads.get(id))!.delivery;

/** Files a brief through the REST door and waits for the background first attempt. */
async function fileOne(): Promise<string> {
  const token = await d.token();
  const res = await answered(d.api("/api/v1/briefs", json(freshBrief(), { authorization: `Bearer ${token}` })));
  expect(res.status).toBe(201);
  const { lead_id } = (await res.json()) as { lead_id: string };
  // Accepted means recorded: the lead is in the store before the answer, whatever Postmark does next.
  expect(await d.leads.get(lead_id)).toMatchObject({ id: lead_id } satisfies Partial<Lead>);
  await d.settle();
  return lead_id;
}

/** Each fault as the test injects it, once for the first attempt and once more for the first retry. */
const transient: [string, () => Promise<void>][] = [
  ["down (connection refused)", () => d.mail.set("down")],
  ...(["500", "503", "429", "timeout"] as const).map((fault): [string, () => Promise<void>] => [
    `answering ${fault}`,
    async () => d.postmark.fail(fault, fault),
  ]),
];

describe.each(transient)("Postmark %s", (_name, inject) => {
  it("keeps the accepted lead pending through the outage, then delivers it exactly once", async () => {
    await inject();
    const id = await fileOne();
    expect(await delivery(id)).toMatchObject({ state: "pending", attempts: 1, next_attempt_at: expect.any(String) });
    expect(sentFor(id)).toBe(0);

    // Not due yet: the job leaves it alone. Due while Postmark is still failing: tried again, still pending.
    await deliveryRun(0);
    expect((await delivery(id)).attempts).toBe(1);
    await deliveryRun(2);
    expect((await delivery(id)).state).toBe("pending");
    expect(sentFor(id)).toBe(0);

    await d.mail.set(undefined);
    await deliveryRun(10);
    expect(await delivery(id)).toMatchObject({ state: "delivered", message_id: expect.any(String) });
    expect(sentFor(id)).toBe(1);
    await deliveryRun(240);
    expect(sentFor(id)).toBe(1);
  });
});

describe("Postmark slow (answering late, inside the client's timeout)", () => {
  it("answers the brief at once and delivers it in the background, once", async () => {
    await d.mail.set("slow");
    try {
      const token = await d.token();
      const res = await answered(d.api("/api/v1/briefs", json(freshBrief(), { authorization: `Bearer ${token}` })));
      expect(res.status).toBe(201);
      const { lead_id: id } = (await res.json()) as { lead_id: string };
      // The answer did not wait for Postmark: the attempt is under way, its answer held until the fault is lifted.
      await expect.poll(() => d.mail.held).toBe(1);
      expect((await delivery(id)).state).toMatch(/^(pending|sending)$/);
      await d.mail.set(undefined);
      await d.settle();
      expect(await delivery(id)).toMatchObject({ state: "delivered", attempts: 1 });
      await deliveryRun(240);
      expect(sentFor(id)).toBe(1);
    } finally {
      await d.mail.set(undefined);
    }
  });
});

describe("Postmark accepting a message but losing its answer", () => {
  it("finds the message on the next attempt instead of sending it again", async () => {
    d.postmark.fail("accept-then-drop");
    const id = await fileOne();
    expect(await delivery(id)).toMatchObject({ state: "pending", attempts: 1 });
    expect(sentFor(id)).toBe(1);
    await deliveryRun(2);
    expect(await delivery(id)).toMatchObject({ state: "delivered", attempts: 1 });
    expect(sentFor(id)).toBe(1);
  });
});

describe("overlapping runs of the delivery job", () => {
  it("send a due lead once", async () => {
    d.postmark.fail("503");
    const id = await fileOne();
    await Promise.all(Array.from({ length: 5 }, () => deliveryRun(2)));
    expect(await delivery(id)).toMatchObject({ state: "delivered" });
    expect(sentFor(id)).toBe(1);
  });
});

describe.each([
  ["an inactive recipient", "inactive-recipient", /^422 code 406/],
  ["an unconfirmed sender signature", "sender-signature", /^422 code 400/],
  ["a revoked server token", "bad-token", /^401 code 10/],
] as const)("Postmark refusing %s (permanent)", (_name, fault: PostmarkFault, reason) => {
  it("marks the lead failed, alerts the operator once, and never retries it", async () => {
    d.postmark.fail(fault);
    const id = await fileOne();
    expect(await delivery(id)).toMatchObject({ state: "failed", attempts: 1, last_error: expect.stringMatching(reason) });
    expect(alerts.filter((line) => line.includes(`LEAD NOT DELIVERED: ${id}`))).toHaveLength(1);
    expect(await d.leads.dueIds(later(24 * 60)(), 1000)).not.toContain(id);
    await deliveryRun(120);
    expect(sentFor(id)).toBe(0);
    expect((await delivery(id)).attempts).toBe(1);
  });
});
