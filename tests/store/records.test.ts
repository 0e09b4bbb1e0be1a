import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import IORedis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveWeb } from "../../scripts/lib/serve-web.ts";
import { redisBackend } from "../../scripts/local-store/backends.ts";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { createUpstashRestHandler } from "../../scripts/local-store/upstash-rest.ts";
import { BookingStore, type BookingKeyRecord } from "../../src/booking/store.ts";
import { LeadStore, type IdempotencyRecord } from "../../src/briefs/store.ts";
import { requestStateTtlSeconds } from "../../src/mcp/constants.ts";
import { formDecisions } from "../../src/mcp/form-decisions.ts";
import { claimOnce, parseRecord, recordMember, releaseIfOwner, setIfAbsent } from "../../src/store/records.ts";
import { realRedisAvailable } from "../support/upstash-gateway.ts";
import { patience } from "../support/patience.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The stores' one helper (src/store/records.ts) and the stores' claims through it, over the local store and real Redis.
 * Real Redis is shared and not emptied (the Lua test's database): every key holds this run's id, and is removed after.
 */
const run = randomUUID();
const dir = await storeFolder("frontdoor-records-");
afterAll(() => rm(dir, { recursive: true, force: true }));

type Store = { url: string; token: string; close(): Promise<void> };
async function realRedis(): Promise<Store> {
  const redis = new IORedis({ host: "127.0.0.1", port: 6379, db: 8, maxRetriesPerRequest: 1 });
  const server = await serveWeb(createUpstashRestHandler({ token: "t", backend: redisBackend(redis) }));
  return {
    url: server.url,
    token: "t",
    async close() {
      await server.close();
      const keys = await redis.keys(`*${run}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
const stores: [string, () => Promise<Store>][] = [
  ["the local store", () => startLocalStore({ token: "t", snapshotFile: join(dir, `${randomUUID()}.json`) })],
];
if (await realRedisAvailable()) stores.push(["real Redis", realRedis]);

let names = 0;
/** A name no other test in this run used, holding the run's id. */
const fresh = (what: string) => `${what}-${run}-${(names += 1)}`;

describe("parseRecord, on values", () => {
  it("gives null for no value", () => {
    expect(parseRecord(null)).toBeNull();
    expect(parseRecord(undefined)).toBeNull();
  });

  it("gives a record the client parsed as it is, and parses one left as text", () => {
    const record = { fingerprint: "f", lead_id: "lead_1" };
    expect(parseRecord(record)).toBe(record);
    expect(parseRecord<typeof record>('{"fingerprint":"f","lead_id":"lead_1"}')).toEqual(record);
  });

  it("throws the SyntaxError of text that is not JSON", () => {
    expect(() => parseRecord('{"fingerprint":"f",')).toThrow(SyntaxError);
  });
});

describe.each(stores)("records on %s", (_name, start) => {
  let store: Store;
  let redis: Redis;
  beforeAll(async () => {
    store = await start();
    redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
  });
  afterAll(() => store.close());

  describe("parseRecord", () => {
    it("reads a record written as JSON, and one the client hands over as text (the JSON of its JSON)", async () => {
      const record = { fingerprint: "f", booking_id: "bk_1" };
      const [plain, twice] = [fresh("plain"), fresh("twice")];
      await redis.set(plain, JSON.stringify(record));
      await redis.set(twice, JSON.stringify(JSON.stringify(record)));
      expect(parseRecord(await redis.get<string | typeof record>(plain))).toEqual(record);
      const text = await redis.get<string | typeof record>(twice);
      expect(typeof text).toBe("string");
      expect(parseRecord(text)).toEqual(record);
      expect(parseRecord(await redis.get(fresh("missing")))).toBeNull();
    });

    it("throws the SyntaxError of a malformed record, as the stores' reads do; a claim on it leaves it as it was", async () => {
      const [owner, leadId] = [fresh("owner"), fresh("lead")];
      await redis.set(`lead:${leadId}`, '{"id":"lead_1",');
      await redis.set(`booking:idem:${owner}:hash`, '{"fingerprint":');
      await redis.set(`brief:idem:${owner}:hash`, "not json");
      await expect(new LeadStore(redis).get(leadId)).rejects.toThrow(SyntaxError);
      await expect(new BookingStore(redis).keyRecord(owner, "hash")).rejects.toThrow(SyntaxError);
      const claim: IdempotencyRecord = { fingerprint: "f", lead_id: "lead_2" };
      await expect(new LeadStore(redis).claimIdempotencyKey(owner, "hash", claim)).rejects.toThrow(SyntaxError);
      expect(await redis.get(`brief:idem:${owner}:hash`)).toBe("not json");
    });
  });

  describe("claimOnce", () => {
    it("gives null to the first claim, and the first holder to a second, which changes neither value nor lifetime", async () => {
      const key = fresh("claim");
      expect(await claimOnce(redis, key, "first", { ex: 60 })).toBeNull();
      expect(await claimOnce(redis, key, "second", { ex: 600 })).toBe("first");
      expect(await redis.get(key)).toBe("first");
      expect(await redis.ttl(key)).toBeGreaterThan(0);
      expect(await redis.ttl(key)).toBeLessThanOrEqual(60);
    });

    it("lets one of racing claims win, and tells every other the winner", async () => {
      const key = fresh("race");
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => claimOnce(redis, key, `claim-${i}`, { ex: 60 })));
      const winner = await redis.get<string>(key);
      expect(answers.filter((answer) => answer === null)).toHaveLength(1);
      expect(answers.filter((answer) => answer !== null)).toEqual(Array(7).fill(winner));
    });

    it("gives the first record, parsed, to a second claim of a record", async () => {
      const key = fresh("record");
      const first = { fingerprint: "a", booking_id: "bk_1" };
      expect(await claimOnce(redis, key, JSON.stringify(first), { ex: 60 })).toBeNull();
      const holder = await claimOnce<string | typeof first>(redis, key, JSON.stringify({ fingerprint: "b", booking_id: "bk_2" }), {
        ex: 60,
      });
      expect(parseRecord(holder)).toEqual(first);
    });
  });

  describe("setIfAbsent", () => {
    it("sets a key once for its milliseconds, after which it can be set again", async () => {
      // For a patience, a second set is refused whatever the machine's load; a key of 50 ms is set again once it expired.
      const key = fresh("turn");
      expect(await setIfAbsent(redis, key, "a", { px: patience })).toBe(true);
      expect(await setIfAbsent(redis, key, "b", { px: patience })).toBe(false);
      expect(await redis.pttl(key)).toBeGreaterThan(0);
      expect(await redis.pttl(key)).toBeLessThanOrEqual(patience);
      const short = fresh("turn");
      expect(await setIfAbsent(redis, short, "a", { px: 50 })).toBe(true);
      await expect.poll(() => setIfAbsent(redis, short, "b", { px: patience })).toBe(true);
      expect(await redis.get(short)).toBe("b");
    });
  });

  describe("releaseIfOwner", () => {
    it("releases the claim its holder's token names, so that it can be claimed again", async () => {
      const [key, token] = [fresh("release"), randomUUID()];
      await setIfAbsent(redis, key, token, { ex: 60 });
      expect(await releaseIfOwner(redis, key, token)).toBe(true);
      expect(await redis.get(key)).toBeNull();
      expect(await setIfAbsent(redis, key, randomUUID(), { ex: 60 })).toBe(true);
    });

    it("does nothing for a non-owner, an empty mark or no claim", async () => {
      const [key, token] = [fresh("held"), randomUUID()];
      await setIfAbsent(redis, key, token, { ex: 60 });
      expect(await releaseIfOwner(redis, key, randomUUID())).toBe(false);
      expect(await releaseIfOwner(redis, key, "")).toBe(false);
      expect(await redis.get(key)).toBe(token);
      expect(await redis.ttl(key)).toBeGreaterThan(0);
      expect(await releaseIfOwner(redis, fresh("never-claimed"), token)).toBe(false);
    });

    it("releases a record by the whole member naming its holder: not a prefix of it, nor its value under another name", async () => {
      const key = fresh("member");
      await redis.set(key, JSON.stringify({ fingerprint: "bk_ab", booking_id: "bk_abc" }));
      expect(await releaseIfOwner(redis, key, recordMember("booking_id", "bk_ab"))).toBe(false);
      expect(await releaseIfOwner(redis, key, recordMember("booking_id", "bk_abcd"))).toBe(false);
      expect(await releaseIfOwner(redis, key, recordMember("fingerprint", "bk_abc"))).toBe(false);
      expect(await redis.get(key)).not.toBeNull();
      expect(await releaseIfOwner(redis, key, recordMember("booking_id", "bk_abc"))).toBe(true);
      expect(await redis.get(key)).toBeNull();
    });
  });

  describe("the stores' claims, under the keys they always had", () => {
    it("LeadStore: a delivery lock taken once, given back only by its owner", async () => {
      const leads = new LeadStore(redis);
      const [id, owner, other] = [fresh("lead"), randomUUID(), randomUUID()];
      expect(await leads.lock(id, owner)).toBe(true);
      expect(await leads.lock(id, other)).toBe(false);
      expect(await redis.get(`lead:${id}:lock`)).toBe(owner);
      await leads.unlock(id, other);
      expect(await redis.get(`lead:${id}:lock`)).toBe(owner);
      await leads.unlock(id, owner);
      expect(await leads.lock(id, other)).toBe(true);
    });

    it("LeadStore: an Idempotency-Key and a repeat slot claimed once, the first holder given to the second", async () => {
      const leads = new LeadStore(redis);
      const owner = fresh("owner");
      const first: IdempotencyRecord = { fingerprint: "f", lead_id: "lead_1" };
      expect(await leads.claimIdempotencyKey(owner, "hash", first)).toBeNull();
      expect(await leads.claimIdempotencyKey(owner, "hash", { fingerprint: "g", lead_id: "lead_2" })).toEqual(first);
      expect(await redis.get(`brief:idem:${owner}:hash`)).toEqual(first);
      expect(await leads.claimRepeat(owner, "print", "lead_1")).toBeNull();
      expect(await leads.claimRepeat(owner, "print", "lead_2")).toBe("lead_1");
      expect(await redis.get(`brief:repeat:${owner}:print`)).toBe("lead_1");
    });

    it("BookingStore: a key claimed once, given back by the request booking under it, kept once pointed elsewhere", async () => {
      const bookings = new BookingStore(redis);
      const owner = fresh("grant");
      const first: BookingKeyRecord = { fingerprint: "f", booking_id: "bk_1" };
      expect(await bookings.claimKey(owner, "hash", first)).toBeNull();
      await bookings.releaseKey(owner, "hash", "bk_2");
      expect(await redis.get(`booking:idem:${owner}:hash`)).toEqual(first);
      expect(await bookings.claimKey(owner, "hash", { fingerprint: "g", booking_id: "bk_2" })).toEqual(first);
      await bookings.pointKey(owner, "hash", { fingerprint: "f", booking_id: "bk_3" });
      await bookings.releaseKey(owner, "hash", "bk_1");
      expect(await bookings.keyRecord(owner, "hash")).toEqual({ fingerprint: "f", booking_id: "bk_3" });
      await bookings.releaseKey(owner, "hash", "bk_3");
      expect(await bookings.claimKey(owner, "hash", { fingerprint: "g", booking_id: "bk_4" })).toBeNull();
    });

    it("a confirmation form's first decision stands", async () => {
      const forms = formDecisions(redis);
      const [grant, form] = [fresh("grant"), fresh("form")];
      expect(await forms.decide(grant, form, "decline")).toBe("decline");
      expect(await forms.decide(grant, form, "accept")).toBe("decline");
      expect(await redis.get(`mcp:form:${grant}:${form}`)).toBe("decline");
      // Kept while the form's requestState can still be answered, then forgotten.
      const ttl = await redis.ttl(`mcp:form:${grant}:${form}`);
      expect(ttl).toBeGreaterThan(requestStateTtlSeconds);
      expect(ttl).toBeLessThanOrEqual(requestStateTtlSeconds + 60);
    });
  });
});
