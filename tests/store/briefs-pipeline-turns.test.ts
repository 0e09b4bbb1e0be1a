import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newLeadId } from "../../src/briefs/lead.ts";
import type { Mailer } from "../../src/briefs/mailer.ts";
import { checkKey, fileBrief, filedUnder, type PipelineDeps } from "../../src/briefs/pipeline.ts";
import type { Brief } from "../../src/briefs/schema.ts";
import { LeadStore } from "../../src/briefs/store.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";
import { sha256Hex } from "../../src/store/ids.ts";
import { startLocalStore, type LocalStore } from "../../scripts/local-store/store.ts";
import { fileBody, freshBrief, pipelineDeps, standInMailer, type Filed } from "../support/briefs.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "../support/postmark-standin.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The brief pipeline's turns, repeats and keys where a store is slow, fails or holds what another request left, on the
 * local store only: each case a `LeadStore` that misbehaves in one way. The common cases, over both stores, are in
 * briefs-pipeline.test.ts. Everything the pipeline runs is built inside each test (a mutation run switches its mutant on
 * at the start of a test).
 */
const dir = await storeFolder("frontdoor-briefs-turns-");
let store: LocalStore;
let postmark: PostmarkStandIn;
beforeAll(async () => {
  store = await startLocalStore({ token: "t", snapshotFile: join(dir, "store.json") });
  postmark = await startPostmarkStandIn();
});
afterAll(async () => {
  await postmark.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const redis = () => new Redis({ url: store.url, token: store.token, enableTelemetry: false });
/** The pipeline over the local store; a limit high enough that no lead of this file is held. */
const deps = (overrides: Partial<PipelineDeps> = {}) =>
  pipelineDeps(store, standInMailer(postmark), { dailyEmailLimit: 10_000, ...overrides });
/** The same, over a store of the given kind. */
const over = (Kind: new (redis: Redis) => LeadStore, overrides: Partial<PipelineDeps> = {}) =>
  deps({ store: new Kind(redis()), ...overrides });

let addresses = 0;
/** A person filing through a grant of their own, from an address no other test used. */
const person = () => {
  addresses += 1;
  return { clientId: `client-${randomUUID()}`, owner: consentGrantId(), address: `10.20.${addresses >> 8}.${addresses & 255}` };
};
type Person = ReturnType<typeof person>;
const file = (who: Person, body: Record<string, unknown>, d: PipelineDeps, idempotencyKey?: string) =>
  fileBody({ body, channel: "rest", ...who, idempotencyKey }, d);
const filed = (r: Filed) => {
  if (r.kind !== "filed" || !("lead" in r)) throw new Error(`expected a filed brief, got ${r.kind}`);
  return r.lead;
};

/** A store where the request dies before it records its lead: the claims it made stay behind. */
class Dies extends LeadStore {
  override insert(): never {
    throw new Error("the request died");
  }
}

/** A store whose insert says it was reached, waits for `gate`, then records and says so. */
const gatedInsert = (reached: () => void, gate: Promise<void>, recorded: () => void = () => {}) =>
  class extends LeadStore {
    override async insert(...args: Parameters<LeadStore["insert"]>) {
      reached();
      await gate;
      const placed = await super.insert(...args);
      recorded();
      return placed;
    }
  };

describe("filing a brief, turn by turn", () => {
  it("charges no quota for an exact repeat: an owner's ten briefs an hour are ten different briefs", async () => {
    const who = person();
    const d = deps();
    const body = freshBrief();
    const first = filed(await file(who, body, d));
    for (let i = 0; i < 3; i++) {
      expect(await file(who, body, d)).toMatchObject({ kind: "already_filed", reason: "repeat", lead: { id: first.id } });
    }
    for (let i = 0; i < 9; i++) filed(await file(who, freshBrief(), d));
    expect((await file(who, freshBrief(), d)).kind).toBe("brief_quota_exceeded");
  });

  it("points a new Idempotency-Key sent with a repeat at the original lead", async () => {
    const who = person();
    const d = deps();
    const body = freshBrief();
    const key = randomUUID();
    const first = filed(await file(who, body, d));
    expect(await file(who, body, d, key)).toMatchObject({ kind: "already_filed", reason: "repeat", lead: { id: first.id } });
    // From now on the key names that lead: replayed, as what the key filed; with another brief, refused.
    const replay = { kind: "already_filed", reason: "idempotency_key", lead: { id: first.id } };
    expect(await file(who, body, d, key)).toMatchObject(replay);
    expect(await filedUnder(who.owner, key, d.store)).toMatchObject(replay);
    expect((await file(who, freshBrief(), d, key)).kind).toBe("idempotency_key_reused");
  });

  it("keeps no Idempotency-Key record for a repeat sent without a key", async () => {
    const who = person();
    const d = deps();
    const body = freshBrief();
    filed(await file(who, body, d));
    expect((await file(who, body, d)).kind).toBe("already_filed");
    expect(await redis().keys(`brief:idem:${who.owner}:*`)).toEqual([]);
  });

  it("answers that nothing was filed under a key whose first request died before recording its lead", async () => {
    const who = person();
    const key = randomUUID();
    const body = freshBrief();
    await expect(file(who, body, over(Dies), key)).rejects.toThrow("the request died");
    const d = deps();
    expect(await d.store.idempotencyRecord(who.owner, await sha256Hex(key))).not.toBeNull();
    expect(await filedUnder(who.owner, key, d.store)).toBeNull();
  });

  it("gives back the brief's turn when filing fails, so the same brief can be filed again at once", async () => {
    const who = person();
    const body = freshBrief();
    await expect(file(who, body, over(Dies))).rejects.toThrow("the request died");
    /** A store that never waits for a turn: another request still holding this brief's is an error. */
    class Impatient extends LeadStore {
      override async takeSameBrief(owner: string, fingerprint: string, ms: number) {
        const turn = await super.takeSameBrief(owner, fingerprint, ms);
        if (!turn) throw new Error("the brief's turn is still taken");
        return turn;
      }
    }
    expect(filed(await file(who, body, over(Impatient))).brief.full_name).toBe(body.full_name);
  });

  it("gives up on a brief another request has been filing for ten seconds", async () => {
    const realNow = Date.now.bind(Date);
    let waited = 0;
    /** Another request holds the brief's turn; each look at it takes five seconds. */
    class Taken extends LeadStore {
      override async takeSameBrief() {
        waited += 5_000;
        if (waited > 30_000) throw new Error("waited past its time");
        return undefined;
      }
    }
    const d = over(Taken);
    const clock = vi.spyOn(Date, "now").mockImplementation(() => realNow() + waited);
    try {
      await expect(file(person(), freshBrief(), d)).rejects.toEqual(new Error("the same brief is still being filed by another request"));
    } finally {
      clock.mockRestore();
    }
    expect(waited).toBe(10_000);
  });

  it("answers a retry of a key whose first request is still recording with that request's lead", async () => {
    const who = person();
    const body = freshBrief();
    const key = randomUUID();
    const reachedInsert = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const inserted = Promise.withResolvers<void>();
    /** The first request: it records its lead only once the retry has looked for it once. */
    const Slow = gatedInsert(reachedInsert.resolve, gate.promise, inserted.resolve);
    /** The retry: its first look finds no lead yet, and the first request records it just after. */
    class Early extends LeadStore {
      #looked = false;
      override async get(id: string) {
        const lead = await super.get(id);
        if (!lead && !this.#looked) {
          this.#looked = true;
          gate.resolve();
          await inserted.promise;
        }
        return lead;
      }
    }
    const first = file(who, body, over(Slow), key);
    await reachedInsert.promise;
    const retry = await file(who, body, over(Early), key);
    const lead = filed(await first);
    expect(retry).toMatchObject({ kind: "already_filed", reason: "idempotency_key", lead: { id: lead.id } });
  });

  it("answers a retry that gave up waiting for its key's lead with that lead, once recorded: never a second e-mail", async () => {
    const who = person();
    const body = freshBrief();
    const key = randomUUID();
    const reachedInsert = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    /** The first request: it holds the brief's turn, and records its lead only once the retry waits for that turn. */
    const Slow = gatedInsert(reachedInsert.resolve, gate.promise);
    /** The retry: it stopped waiting for the key's lead (it was not recorded yet), and now waits for the brief's turn. */
    class Waiting extends LeadStore {
      override async takeSameBrief(...args: Parameters<LeadStore["takeSameBrief"]>) {
        const turn = await super.takeSameBrief(...args);
        if (!turn) gate.resolve();
        return turn;
      }
    }
    const first = file(who, body, over(Slow), key);
    await reachedInsert.promise;
    const retry = await file(who, body, over(Waiting), key);
    const lead = filed(await first);
    expect(retry).toMatchObject({ kind: "already_filed", reason: "idempotency_key", lead: { id: lead.id } });
    expect(postmark.sent.filter((message) => JSON.stringify(message.body).includes(lead.id))).toHaveLength(1);
  });

  it("answers with the lead recorded just after this request looked for a repeat, never with a second lead", async () => {
    const who = person();
    const body = freshBrief();
    const first = filed(await file(who, body, deps()));
    /** The look for a repeat before the brief's turn misses the lead recorded meanwhile. */
    class Missed extends LeadStore {
      override async repeatLead() {
        return null;
      }
    }
    expect(await file(who, body, over(Missed))).toMatchObject({ kind: "already_filed", reason: "repeat", lead: { id: first.id } });
    expect((await deps().store.list(1000)).filter((lead) => lead.owner === who.owner)).toHaveLength(1);
  });

  it("never answers with another person's lead, even where the store's repeat slot names one", async () => {
    const alice = person();
    const secret = freshBrief({ message: "Confidential: acquisition in Q3." });
    const aliceLead = filed(await file(alice, secret, deps()));
    /** A store whose repeat slots all name Alice's lead. */
    class Mixed extends LeadStore {
      override async repeatLead() {
        return aliceLead.id;
      }
      override async claimRepeat() {
        return aliceLead.id;
      }
    }
    const mallory = person();
    const lead = filed(await file(mallory, secret, over(Mixed)));
    expect(lead.id).not.toBe(aliceLead.id);
    expect(lead.owner).toBe(mallory.owner);
  });

  it("recognises the same brief whatever the order of its fields", async () => {
    const who = person();
    const d = deps();
    const key = randomUUID();
    const lead = filed(await file(who, freshBrief({ phone: "+1 555 0100", message: "Hello." }), d, key));
    const reordered = Object.fromEntries(Object.entries(lead.brief).reverse()) as Brief;
    expect(Object.keys(reordered)).not.toEqual(Object.keys(lead.brief));
    expect(await filedUnder(who.owner, key, d.store, reordered)).toMatchObject({ lead: { id: lead.id } });
    await expect(checkKey(who.owner, key, reordered, d.store)).resolves.toBeUndefined();
    expect(await fileBrief(reordered, { channel: "rest", ...who }, d)).toMatchObject({
      kind: "already_filed",
      reason: "repeat",
      lead: { id: lead.id },
    });
  });
});

describe("the same person, for the studio's e-mail", () => {
  it("notes no earlier lead on a brief about another person", async () => {
    const d = deps();
    filed(await file(person(), freshBrief(), d));
    expect(filed(await file(person(), freshBrief(), d)).possibly_same_person_as).toBeUndefined();
  });

  it("takes the e-mail and the company in any case for the same person", async () => {
    const d = deps();
    const body = freshBrief();
    const first = filed(await file(person(), body, d));
    const shouted = { ...body, work_email: body.work_email.toUpperCase(), company_name: body.company_name.toUpperCase() };
    expect(filed(await file(person(), shouted, d)).possibly_same_person_as).toBe(first.id);
  });

  it("finds a person an earlier deployment noted: the note is keyed by the e-mail and company in lower case", async () => {
    const d = deps();
    const company = `Analytical Engines ${randomUUID()}`;
    const earlier = newLeadId();
    await redis().set(`brief:person:${await sha256Hex(`ada.byron@engines.example\n${company.toLowerCase()}`)}`, earlier);
    const body = { full_name: "Ada Byron", company_name: company.toUpperCase(), work_email: "Ada.Byron@Engines.Example" };
    expect(filed(await file(person(), body, d)).possibly_same_person_as).toBe(earlier);
  });

  it("files a lead whose same-person note fails, and logs the failure with the lead's id", async () => {
    class NoNotes extends LeadStore {
      override async noteLeadAbout(): Promise<void> {
        throw new Error("the store hiccuped");
      }
    }
    const d = over(NoNotes);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const lead = filed(await file(person(), freshBrief(), d));
      expect(log.mock.calls.map(([line]) => String(line))).toEqual([`same-person note of ${lead.id}: Error: the store hiccuped`]);
      expect((await d.store.get(lead.id))?.delivery.state).toBe("delivered");
    } finally {
      log.mockRestore();
    }
  });
});

describe("the first e-mail attempt", () => {
  it("files a lead whose first e-mail attempt fails, and logs the failure with the lead's id", async () => {
    class NoLocks extends LeadStore {
      override async lock(): Promise<boolean> {
        throw new Error("no lock today");
      }
    }
    const d = over(NoLocks);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const lead = filed(await file(person(), freshBrief(), d));
      expect(log.mock.calls.map(([line]) => String(line))).toEqual([`first delivery attempt of ${lead.id}: Error: no lock today`]);
      expect((await d.store.get(lead.id))?.delivery).toMatchObject({ state: "pending", attempts: 0 });
    } finally {
      log.mockRestore();
    }
  });

  it("runs after the answer when the door gives a waitUntil, so a slow Postmark never delays it", async () => {
    const inner = standInMailer(postmark);
    let go!: () => void;
    const gate = new Promise<void>((resolve) => (go = resolve));
    const slow: Mailer = {
      kind: inner.kind,
      findSent: (message) => inner.findSent(message),
      send: async (message) => {
        await gate;
        return inner.send(message);
      },
    };
    const d = deps({ mailer: slow });
    const later: Promise<unknown>[] = [];
    const brief = freshBrief() as Brief;
    const result = await fileBrief(brief, { channel: "rest", ...person(), waitUntil: (work) => later.push(work) }, d);
    expect(result).toMatchObject({ kind: "filed", lead: { delivery: { state: "pending" } } });
    expect(later).toHaveLength(1);
    go();
    await later[0];
    expect((await d.store.get(result.lead.id))?.delivery.state).toBe("delivered");
  });
});
