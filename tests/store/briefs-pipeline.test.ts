import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leadMessage } from "../../src/briefs/mail.ts";
import { outboxMailer } from "../../src/briefs/mailer.ts";
import { fileBrief, type FilingResult } from "../../src/briefs/pipeline.ts";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { freshBrief, pipelineDeps, standInMailer } from "../support/briefs.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "../support/postmark-standin.ts";
import { realRedisAvailable, startRedisGateway } from "../support/upstash-gateway.ts";

/**
 * The one brief pipeline, in-process, over the local store and over real Redis, e-mailing the Postmark stand-in. Postmark
 * faults and concurrent retries are in the resilience suite (tests/resilience/).
 */
const dir = await mkdtemp(join(tmpdir(), "frontdoor-briefs-"));
const stores: [string, () => Promise<{ url: string; token: string; close(): Promise<void> }>][] = [
  ["local store", () => startLocalStore({ token: "t", snapshotFile: join(dir, "store.json") })],
];
if (await realRedisAvailable()) stores.push(["real Redis", () => startRedisGateway(14)]);
afterAll(() => rm(dir, { recursive: true, force: true }));

const filed = (r: FilingResult) => {
  if (r.kind !== "filed") throw new Error(`expected a filed brief, got ${r.kind}`);
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
  const client = () => `client-${randomUUID()}`;

  it("records the lead, then e-mails it once with every field escaped", async () => {
    const body = freshBrief({ message: "<img src=x onerror=alert(1)> & more", current_website: "https://engines.example/?a=1&b=2" });
    const lead = filed(await fileBrief({ body, channel: "rest", clientId: client() }, deps));
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
    const result = await fileBrief({ body: freshBrief({ dry_run: true }), channel: "rest", clientId: client() }, deps);
    expect(result.kind).toBe("dry_run");
    expect((await deps.store.list(1000)).length).toBe(before);
    expect(postmark.attempts).toBe(attempts);
  });

  it("refuses the same Idempotency-Key with a different brief", async () => {
    const clientId = client();
    const key = randomUUID();
    filed(await fileBrief({ body: freshBrief(), channel: "rest", clientId, idempotencyKey: key }, deps));
    expect((await fileBrief({ body: freshBrief(), channel: "rest", clientId, idempotencyKey: key }, deps)).kind).toBe(
      "idempotency_conflict",
    );
  });

  it("collapses a repeat from the same person and company into the original lead", async () => {
    const body = freshBrief();
    const first = filed(await fileBrief({ body, channel: "rest", clientId: client() }, deps));
    const again = await fileBrief(
      {
        body: { ...body, work_email: body.work_email.toUpperCase().replace("@ENGINES.EXAMPLE", "@engines.example"), message: "Also this." },
        channel: "mcp",
        clientId: client(),
      },
      deps,
    );
    expect(again).toMatchObject({ kind: "already_filed", reason: "same_person", lead: { id: first.id } });
    expect(postmark.sent).toHaveLength(1);
  });

  it("holds each client to 10 briefs an hour", async () => {
    const clientId = client();
    for (let i = 0; i < 10; i++) filed(await fileBrief({ body: freshBrief(), channel: "rest", clientId }, deps));
    const refused = await fileBrief({ body: freshBrief(), channel: "rest", clientId }, deps);
    expect(refused).toMatchObject({ kind: "quota_exceeded", quota: { policy: "briefs-per-client", remaining: 0, allowed: false } });
    expect((await fileBrief({ body: freshBrief({ dry_run: true }), channel: "rest", clientId }, deps)).kind).toBe("dry_run");
  });
});

describe("the local outbox (no Postmark configured)", () => {
  it("writes each e-mail as files a newcomer can read, once per lead", async () => {
    const store = await startLocalStore({ token: "t", snapshotFile: join(dir, "outbox-store.json") });
    const outbox = join(dir, "outbox");
    try {
      const deps = pipelineDeps(store, outboxMailer(outbox));
      const lead = filed(await fileBrief({ body: freshBrief({ full_name: "Zoë Ø" }), channel: "form", clientId: "form:127.0.0.1" }, deps));
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
