import { randomUUID } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Redis } from "@upstash/redis";
import { leadMessage } from "../../src/briefs/mail.ts";
import { checkKey, filedUnder } from "../../src/briefs/pipeline.ts";
import { LeadStore } from "../../src/briefs/store.ts";
import { sha256Hex } from "../../src/store/ids.ts";
import { outboxMailer } from "../../src/briefs/mailer.ts";
import { consentGrantId } from "../../src/oauth/grants.ts";

import { startLocalStore } from "../../scripts/local-store/store.ts";
import { freshBrief, pipelineDeps, standInMailer, fileBody, type Filed } from "../support/briefs.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "../support/postmark-standin.ts";
import { realRedisAvailable, startRedisGateway } from "../support/upstash-gateway.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The one brief pipeline, in-process, over the local store and over real Redis, e-mailing the Postmark stand-in. Postmark
 * faults and concurrent retries are in the resilience suite (tests/resilience/).
 */
const dir = await storeFolder("frontdoor-briefs-");
const stores: [string, () => Promise<{ url: string; token: string; close(): Promise<void> }>][] = [
  ["local store", () => startLocalStore({ token: "t", snapshotFile: join(dir, "store.json") })],
];
if (await realRedisAvailable()) stores.push(["real Redis", () => startRedisGateway(14)]);
afterAll(() => rm(dir, { recursive: true, force: true }));

const filed = (r: Filed) => {
  if (r.kind !== "filed" || !("lead" in r)) throw new Error(`expected a filed brief, got ${r.kind}`);
  return r.lead;
};

describe.each(stores)("filing a brief (%s)", (_name, start) => {
  let store: { url: string; token: string; close(): Promise<void> };
  let postmark: PostmarkStandIn;
  let deps: ReturnType<typeof pipelineDeps>;
  beforeAll(async () => {
    store = await start();
    postmark = await startPostmarkStandIn();
  });
  afterAll(async () => {
    await postmark.close();
    await store.close();
  });
  beforeEach(() => {
    deps = pipelineDeps(store, standInMailer(postmark));
    postmark.sent.length = 0;
  });
  /** A person filing through their own grant of a client (a new client unless one is given). */
  const person = (clientId = `client-${randomUUID()}`, address = "198.51.100.7") => ({ clientId, owner: consentGrantId(), address });

  it("records the lead, then e-mails it once with every field escaped", async () => {
    const body = freshBrief({ message: "<img src=x onerror=alert(1)> & more", current_website: "https://engines.example/?a=1&b=2" });
    const lead = filed(await fileBody({ body, channel: "rest", ...person() }, deps));
    expect(lead.id).toMatch(/^lead_[0-9a-z]{20}$/);
    expect((await deps.store.get(lead.id))?.delivery).toMatchObject({ state: "delivered", attempts: 1 });
    expect(postmark.sent).toHaveLength(1);
    const mail = postmark.sent[0]!.body;
    expect(mail).toMatchObject({
      To: "leads@studio.example",
      ReplyTo: body.work_email,
      Tag: "lead-brief",
      Metadata: { lead_id: lead.id, channel: "rest" },
    });
    expect(mail.Subject).toBe(`New brief: ${body.company_name} (${body.full_name})`);
    expect(mail.HtmlBody).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; more");
    expect(mail.HtmlBody).not.toContain("<img");
    expect(mail.TextBody).toContain("<img src=x onerror=alert(1)> & more");
  });

  it("files nothing and sends nothing for a dry run", async () => {
    const before = (await deps.store.list(1000)).length;
    const attempts = postmark.attempts;
    const result = await fileBody({ body: freshBrief({ dry_run: true }), channel: "rest", ...person() }, deps);
    expect(result.kind).toBe("dry_run");
    expect((await deps.store.list(1000)).length).toBe(before);
    expect(postmark.attempts).toBe(attempts);
  });

  it("refuses the same Idempotency-Key with a different brief", async () => {
    const who = person();
    const key = randomUUID();
    filed(await fileBody({ body: freshBrief(), channel: "rest", ...who, idempotencyKey: key }, deps));
    expect((await fileBody({ body: freshBrief(), channel: "rest", ...who, idempotencyKey: key }, deps)).kind).toBe(
      "idempotency_key_reused",
    );
  });

  it("collapses an exact repeat from the same client into its original lead", async () => {
    const who = person();
    const body = freshBrief({ message: "Our launch is in May." });
    const first = filed(await fileBody({ body, channel: "rest", ...who }, deps));
    const again = await fileBody({ body: { ...body, full_name: `  ${body.full_name}  ` }, channel: "mcp", ...who }, deps);
    expect(again).toMatchObject({ kind: "already_filed", reason: "repeat", lead: { id: first.id } });
    expect(postmark.sent).toHaveLength(1);
  });

  it("files a changed brief from the same client about the same person as a new lead, noting the earlier one", async () => {
    const who = person();
    const body = freshBrief();
    const first = filed(await fileBody({ body, channel: "rest", ...who }, deps));
    const second = filed(await fileBody({ body: { ...body, message: "Also this." }, channel: "rest", ...who }, deps));
    expect(second.id).not.toBe(first.id);
    expect(second.possibly_same_person_as).toBe(first.id);
  });

  it("never answers one person with another's brief, and never drops a brief because another filed first", async () => {
    const secret = freshBrief({ phone: "+1 555 0100", budget_range: "50k_100k", message: "Confidential: acquisition in Q3." });
    const a = filed(await fileBody({ body: secret, channel: "rest", ...person() }, deps));
    const probe = { full_name: "x", company_name: secret.company_name, work_email: secret.work_email };
    const b = await fileBody({ body: probe, channel: "a2a", ...person() }, deps);
    expect(b.kind).toBe("filed");
    const bLead = filed(b);
    expect(bLead.id).not.toBe(a.id);
    expect(JSON.stringify(bLead)).not.toContain("Confidential");
    expect(bLead.possibly_same_person_as).toBe(a.id);
    // The same probe again from a third person is a third lead, not B's.
    expect(filed(await fileBody({ body: probe, channel: "mcp", ...person() }, deps)).id).not.toBe(bLead.id);
    // Each e-mail goes out; the later ones tell the studio it may be the same person.
    expect(postmark.sent).toHaveLength(3);
    expect(postmark.sent[1]!.body.TextBody).toContain(`Possibly the same person as ${a.id}`);
  });

  it("keeps each grant's replays, repeats and quota its own, for two people using the same client", async () => {
    const clientId = `https://agent-${randomUUID()}.example/client.json`;
    const [alice, mallory] = [person(clientId), person(clientId)];
    const key = randomUUID();
    const secret = freshBrief({ message: "Confidential: acquisition in Q3." });
    const original = filed(await fileBody({ body: secret, channel: "mcp", ...alice, idempotencyKey: key }, deps));
    // The same key, and the very same brief, from another person of the same client: a lead of their own.
    const replay = filed(await fileBody({ body: secret, channel: "mcp", ...mallory, idempotencyKey: key }, deps));
    expect(replay.id).not.toBe(original.id);
    expect(replay.owner).toBe(mallory.owner);
    const other = await fileBody({ body: freshBrief(), channel: "mcp", ...mallory, idempotencyKey: key }, deps);
    expect(other.kind).toBe("idempotency_key_reused");
    // Mallory's quota runs out; Alice's does not.
    for (let i = 0; i < 9; i++) filed(await fileBody({ body: freshBrief(), channel: "mcp", ...mallory }, deps));
    const refused = await fileBody({ body: freshBrief(), channel: "mcp", ...mallory }, deps);
    expect(refused).toMatchObject({
      kind: "brief_quota_exceeded",
      refusal: { options: { headers: { RateLimit: expect.stringMatching(/^"briefs-per-grant"/) } } },
    });
    expect((await fileBody({ body: freshBrief(), channel: "mcp", ...alice }, deps)).kind).toBe("filed");
  });

  it("binds no Idempotency-Key to a brief the quota refused: nothing was filed under it", async () => {
    const who = person();
    for (let i = 0; i < 10; i++) filed(await fileBody({ body: freshBrief(), channel: "rest", ...who }, deps));
    const key = randomUUID();
    const refused = await fileBody({ body: freshBrief(), channel: "rest", ...who, idempotencyKey: key }, deps);
    expect(refused.kind).toBe("brief_quota_exceeded");
    // Another brief under the key is refused by the quota again, not as a reuse of the key.
    expect((await fileBody({ body: freshBrief(), channel: "rest", ...who, idempotencyKey: key }, deps)).kind).toBe("brief_quota_exceeded");
    expect(await filedUnder(who.owner, key, deps.store)).toBeNull();
  });

  /** The pipeline over a store where the request dies before it records its lead: the claims it made stay behind. */
  const dying = () => {
    const redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
    const died = class extends LeadStore {
      override insert(): never {
        throw new Error("the request died");
      }
    };
    return { ...deps, store: new died(redis) };
  };

  it("files a retry of a key whose first request died under the lead id that request claimed", async () => {
    const who = person();
    const key = randomUUID();
    const body = freshBrief();
    await expect(fileBody({ body, channel: "rest", ...who, idempotencyKey: key }, dying())).rejects.toThrow("the request died");
    const claimed = await deps.store.idempotencyRecord(who.owner, await sha256Hex(key));
    const retry = filed(await fileBody({ body, channel: "rest", ...who, idempotencyKey: key }, deps));
    expect(retry.id).toBe(claimed!.lead_id);
    expect(await fileBody({ body, channel: "rest", ...who, idempotencyKey: key }, deps)).toMatchObject({
      kind: "already_filed",
      reason: "idempotency_key",
      lead: { id: retry.id },
    });
    expect(postmark.sent).toHaveLength(1);
  });

  it("takes over the repeat slot of a brief whose request died, so that the next repeat is answered with the new lead", async () => {
    const who = person();
    const body = freshBrief();
    await expect(fileBody({ body, channel: "rest", ...who }, dying())).rejects.toThrow("the request died");
    const lead = filed(await fileBody({ body, channel: "rest", ...who }, deps));
    expect(await fileBody({ body, channel: "rest", ...who }, deps)).toMatchObject({
      kind: "already_filed",
      reason: "repeat",
      lead: { id: lead.id },
    });
  });

  it("answers what a key filed, for that brief only and its owner only, and refuses it for another brief", async () => {
    const who = person();
    const key = randomUUID();
    const lead = filed(await fileBody({ body: freshBrief(), channel: "rest", ...who, idempotencyKey: key }, deps));
    const replay = { kind: "already_filed", reason: "idempotency_key", lead: { id: lead.id } };
    expect(await filedUnder(who.owner, key, deps.store)).toMatchObject(replay);
    expect(await filedUnder(who.owner, key, deps.store, lead.brief)).toMatchObject(replay);
    const other = { ...lead.brief, full_name: "Someone Else" };
    expect(await filedUnder(who.owner, key, deps.store, other)).toBeNull();
    expect(await filedUnder(person().owner, key, deps.store)).toBeNull();
    expect(await filedUnder(who.owner, randomUUID(), deps.store)).toBeNull();
    await expect(checkKey(who.owner, key, lead.brief, deps.store)).resolves.toBeUndefined();
    await expect(checkKey(who.owner, key, other, deps.store)).rejects.toMatchObject({ condition: "idempotency_key_reused" });
    await expect(checkKey(who.owner, randomUUID(), other, deps.store)).resolves.toBeUndefined();
  });

  it("holds each grant to 10 briefs an hour", async () => {
    const who = person();
    for (let i = 0; i < 10; i++) filed(await fileBody({ body: freshBrief(), channel: "rest", ...who }, deps));
    const refused = await fileBody({ body: freshBrief(), channel: "rest", ...who }, deps);
    // Refused (Retry-After), with none left of the grant's quota.
    expect(refused).toMatchObject({
      kind: "brief_quota_exceeded",
      refusal: {
        options: { headers: { RateLimit: expect.stringMatching(/^"briefs-per-grant";r=0;/), "Retry-After": expect.any(String) } },
      },
    });
    expect((await fileBody({ body: freshBrief({ dry_run: true }), channel: "rest", ...who }, deps)).kind).toBe("dry_run");
  });
});

describe("the local outbox (no Postmark configured)", () => {
  it("writes each e-mail as files a newcomer can read, once per lead", async () => {
    const store = await startLocalStore({ token: "t", snapshotFile: join(dir, "outbox-store.json") });
    const outbox = join(dir, "outbox");
    try {
      const deps = pipelineDeps(store, outboxMailer(outbox));
      const lead = filed(
        await fileBody(
          {
            body: freshBrief({ full_name: "Zoë Ø" }),
            channel: "form",
            clientId: "form:127.0.0.1",
            owner: "form:127.0.0.1",
            address: "127.0.0.1",
          },
          deps,
        ),
      );
      const files = (await readdir(outbox)).sort();
      expect(files).toEqual([`${lead.id}.eml.txt`, `${lead.id}.html`]);
      const text = await readFile(join(outbox, `${lead.id}.eml.txt`), "utf8");
      expect(text).toContain(`Reply-To: ${lead.brief.work_email}`);
      expect(text).toContain("Name: Zoë Ø");
      expect(await deps.mailer.findSent(leadMessage(lead, deps))).toBe(`outbox:${lead.id}`);
    } finally {
      await store.close();
    }
  });
});
