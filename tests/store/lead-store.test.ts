import { beforeEach, describe, expect, it } from "vitest";
import type { CallNotice } from "../../src/briefs/call-notice.ts";
import type { HeldAlert } from "../../src/briefs/held.ts";
import { newLeadId, type Lead } from "../../src/briefs/lead.ts";
import { alertKey, callNoticeKey, emailedSourcesKey, LeadStore } from "../../src/briefs/store.ts";
import { freshBrief } from "../support/briefs.ts";
import { fileLocalStore } from "../support/file-store.ts";

/**
 * The lead store's plain records (src/briefs/store.ts) on the local store, emptied before each test: the list of leads,
 * the queue of what is owed an e-mail and when, what expires once sent, the delivery locks, and the busiest addresses.
 * The day's limit and its holds are tests/store/held-leads.test.ts's.
 */
const { redis } = await fileLocalStore();
const store = new LeadStore(redis);
beforeEach(() => redis.flushdb());

const at = (ms: number) => new Date(ms).toISOString();
const t0 = Date.parse("2031-05-06T10:00:00Z");
const lead = (received: number): Lead & { address: string } => ({
  id: newLeadId(),
  received_at: at(received),
  channel: "rest",
  client_id: "client-1",
  owner: "grant-1",
  address: "198.51.100.7",
  brief: freshBrief() as Lead["brief"],
  delivery: { state: "pending", attempts: 0 },
});
const dueWithScores = async () => {
  const flat = await redis.zrange<(string | number)[]>("leads:due", 0, -1, { withScores: true });
  const pairs: [string, number][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([String(flat[i]), Number(flat[i + 1])]);
  return pairs;
};

describe("the leads", () => {
  it("lists the newest first, as many as asked, and none in an empty store", async () => {
    expect(await store.list()).toEqual([]);
    const leads = [lead(t0), lead(t0 + 1000), lead(t0 + 2000)];
    for (const l of leads) await store.insert(l, 50);
    expect((await store.list()).map((l) => l.id)).toEqual(leads.map((l) => l.id).reverse());
    expect((await store.list(2)).map((l) => l.id)).toEqual([leads[2]!.id, leads[1]!.id]);
  });

  it("queues a lead's next attempt when it has one, else when it was received, and drops it once settled", async () => {
    const l = lead(t0);
    await store.insert(l, 50);
    await store.saveDelivery({ ...l, delivery: { state: "sending", attempts: 1 } });
    expect(await dueWithScores()).toEqual([[l.id, t0]]);
    await store.saveDelivery({ ...l, delivery: { state: "pending", attempts: 1, next_attempt_at: at(t0 + 60_000) } });
    expect(await dueWithScores()).toEqual([[l.id, t0 + 60_000]]);
    expect(await store.dueIds(t0 + 59_999)).toEqual([]);
    expect(await store.dueIds(t0 + 60_000)).toEqual([l.id]);
    await store.saveDelivery({ ...l, delivery: { state: "failed", attempts: 2 } });
    expect(await dueWithScores()).toEqual([]);
    expect((await store.get(l.id))!.delivery).toEqual({ state: "failed", attempts: 2 });
  });

  it("answers at most `limit` due ids, the earliest first", async () => {
    const leads = [lead(t0 + 2000), lead(t0), lead(t0 + 1000)];
    for (const l of leads) await store.insert(l, 50);
    expect(await store.dueIds(t0 + 5000, 2)).toEqual([leads[1]!.id, leads[2]!.id]);
  });
});

describe("what is owed besides leads", () => {
  const alert = (state: "pending" | "delivered"): HeldAlert => ({
    day: "2031-05-06",
    limit: 50,
    created_at: at(t0),
    reason: "day",
    delivery: { state, attempts: state === "pending" ? 0 : 1 },
  });
  const notice = (extra: Partial<CallNotice> = {}): CallNotice => ({
    booking_id: "bk_0123456789abcdefghjk",
    lead_id: "lead_0123456789abcdefghjk",
    created_at: at(t0),
    start: at(t0 + 86_400_000),
    end: at(t0 + 86_400_000 + 1_800_000),
    time_zone: "Europe/London",
    studio_time_zone: "America/Los_Angeles",
    delivery: { state: "pending", attempts: 0 },
    ...extra,
  });

  it("keeps an alert due from when it was made, and once sent lets it expire after three days", async () => {
    const key = alertKey("2031-05-06", "day");
    await store.saveAlert(key, alert("pending"));
    expect(await dueWithScores()).toEqual([[key, t0]]);
    expect(await redis.ttl(key)).toBe(-1);
    await store.saveAlert(key, alert("delivered"));
    expect(await dueWithScores()).toEqual([]);
    expect(await store.getAlert(key)).toEqual(alert("delivered"));
    expect(await redis.ttl(key)).toBeGreaterThan(3 * 86_400 - 60);
    expect(await redis.ttl(key)).toBeLessThanOrEqual(3 * 86_400);
  });

  it("keeps a call notice due until sent, then 30 days; one cancelled before it went says so", async () => {
    const key = callNoticeKey("bk_0123456789abcdefghjk");
    await store.saveCallNotice(notice({ delivery: { state: "pending", attempts: 1, next_attempt_at: at(t0 + 60_000) } }));
    expect(await dueWithScores()).toEqual([[key, t0 + 60_000]]);
    await store.noteCallCancelled("bk_0123456789abcdefghjk", at(t0 + 5000));
    expect(await store.getCallNotice(key)).toMatchObject({ cancelled_at: at(t0 + 5000), delivery: { state: "pending" } });
    expect(await dueWithScores()).toEqual([[key, t0 + 60_000]]);
    const sent = notice({ delivery: { state: "delivered", attempts: 1 } });
    await store.saveCallNotice(sent);
    expect(await dueWithScores()).toEqual([]);
    expect(await redis.ttl(key)).toBeGreaterThan(30 * 86_400 - 60);
    // Once sent, a cancellation changes nothing; nor for a booking that owed no notice.
    await store.noteCallCancelled("bk_0123456789abcdefghjk", at(t0 + 9000));
    expect(await store.getCallNotice(key)).toEqual(sent);
    await store.noteCallCancelled("bk_zzzzzzzzzzzzzzzzzzzz", at(t0));
    expect(await redis.exists(callNoticeKey("bk_zzzzzzzzzzzzzzzzzzzz"))).toBe(0);
  });
});

describe("a delivery's lock", () => {
  it("is one attempt's at a time, given back only by its holder, one for each lead, alert or notice", async () => {
    const ids = [newLeadId(), alertKey("2031-05-06", "owner"), callNoticeKey("bk_0123456789abcdefghjk")];
    for (const id of ids) {
      expect(await store.lock(id, "a")).toBe(true);
      expect(await store.lock(id, "b")).toBe(false);
      await store.unlock(id, "b");
      expect(await store.lock(id, "b")).toBe(false);
      await store.unlock(id, "a");
      expect(await store.lock(id, "b")).toBe(true);
    }
    expect((await redis.keys("*:lock")).sort()).toEqual([`lead:${ids[0]}:lock`, `${ids[1]}:lock`, `${ids[2]}:lock`].sort());
    expect(await redis.pttl(`lead:${ids[0]}:lock`)).toBeGreaterThan(55_000);
  });
});

describe("the busiest addresses of a day", () => {
  it("are the addresses with the most e-mailed leads, most first, then by address, three unless asked", async () => {
    await redis.hset(emailedSourcesKey("2031-05-06"), {
      "address:198.51.100.9": 2,
      "address:198.51.100.1": 5,
      "owner:grant-1": 9,
      "address:198.51.100.3": 2,
      "address:198.51.100.2": 1,
    });
    expect(await store.busiestAddresses("2031-05-06")).toEqual([
      { address: "198.51.100.1", emailed: 5 },
      { address: "198.51.100.3", emailed: 2 },
      { address: "198.51.100.9", emailed: 2 },
    ]);
    expect(await store.busiestAddresses("2031-05-06", 1)).toEqual([{ address: "198.51.100.1", emailed: 5 }]);
    expect(await store.busiestAddresses("2031-05-07")).toEqual([]);
  });
});
