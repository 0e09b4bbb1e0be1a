import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../../src/config/env.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { mailerFromEnv } from "../../src/briefs/delivery-config.ts";
import type { MailMessage } from "../../src/briefs/mail.ts";
import { classify, outboxMailer, postmarkMailer } from "../../src/briefs/mailer.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "../support/postmark-standin.ts";
import { patience } from "../support/patience.ts";

/**
 * The mailers (src/briefs/mailer.ts) and the one the environment picks (src/briefs/delivery-config.ts): what Postmark is
 * sent, how its refusals are read (try again, or never), the outbox's files, and a deployment without Postmark.
 */
const message = (extra: Partial<MailMessage> = {}): MailMessage => ({
  from: "Website <website@studio.example>",
  to: "leads@studio.example",
  replyTo: "ada@engines.example",
  subject: "New brief: Engines (Ada)",
  text: "the text",
  html: "<p>the html</p>",
  tag: "lead-brief",
  metadata: { lead_id: `lead_${crypto.randomUUID()}`, channel: "rest" },
  idField: "lead_id",
  ...extra,
});

describe("reading Postmark's refusals", () => {
  it.each([
    ["no answer at all", new Error("socket hang up"), "transient", "network: socket hang up"],
    ["a status of 0", { statusCode: 0, message: "timeout" }, "transient", "0: timeout"],
    ["a 429", { statusCode: 429, code: 429, message: "Rate limit exceeded." }, "transient", "429 code 429: Rate limit exceeded."],
    ["a 500", { statusCode: 500, message: "Internal" }, "transient", "500: Internal"],
    ["a 499", { statusCode: 499, message: "Closed" }, "permanent", "499: Closed"],
    ["maintenance (422 code 100)", { statusCode: 422, code: 100, message: "Maintenance" }, "transient", "422 code 100: Maintenance"],
    ["an inactive recipient", { statusCode: 422, code: 406, message: "Inactive" }, "permanent", "422 code 406: Inactive"],
    ["a bad token", { statusCode: 401, code: 10, message: "Bad token" }, "permanent", "401 code 10: Bad token"],
    ["something that is no error", "down", "transient", "network: down"],
  ])("reads %s as %s", (_, error, outcome, reason) => {
    expect(classify(error)).toEqual({ outcome, reason });
  });
});

describe("Postmark", () => {
  let postmark: PostmarkStandIn;
  beforeAll(async () => {
    postmark = await startPostmarkStandIn("pm-token", 1_500);
  });
  afterAll(() => postmark.close());

  it("sends every part of the message untracked on the outbound stream, then finds it by its id", async () => {
    const mailer = postmarkMailer({ token: "pm-token", apiUrl: postmark.url, timeoutSeconds: patience / 1000 });
    expect(mailer.kind).toBe("postmark");
    const m = message();
    expect(await mailer.findSent(m)).toBeNull();
    const result = await mailer.send(m);
    const sent = postmark.sent.at(-1)!;
    expect(result).toEqual({ outcome: "delivered", messageId: sent.id });
    expect(sent.body).toMatchObject({
      From: m.from,
      To: m.to,
      ReplyTo: m.replyTo,
      Subject: m.subject,
      TextBody: m.text,
      HtmlBody: m.html,
      Tag: m.tag,
      Metadata: m.metadata,
      MessageStream: "outbound",
      TrackOpens: false,
    });
    expect(await mailer.findSent(m)).toBe(sent.id);
    // Another tag, or another id, is another message.
    expect(await mailer.findSent({ ...m, tag: "lead-call" })).toBeNull();
    expect(await mailer.findSent({ ...m, metadata: { ...m.metadata, lead_id: "lead_other" } })).toBeNull();
  });

  it("reads a refusal as Postmark meant it", async () => {
    const mailer = postmarkMailer({ token: "pm-token", apiUrl: postmark.url, timeoutSeconds: patience / 1000 });
    postmark.fail("inactive-recipient", "503");
    expect(await mailer.send(message())).toMatchObject({ outcome: "permanent", reason: expect.stringMatching(/^422 code 406: /) });
    expect(await mailer.send(message())).toMatchObject({ outcome: "transient", reason: expect.stringMatching(/^503: /) });
  });
});

describe("the outbox", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "outbox-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes the message's headers and text once, named after its id, and its HTML beside it", async () => {
    const outbox = join(dir, "first");
    const mailer = outboxMailer(outbox);
    expect(mailer.kind).toBe(`outbox ${outbox}`);
    const m = message();
    const id = m.metadata.lead_id!;
    expect(await mailer.findSent(m)).toBeNull();
    expect(await mailer.send(m)).toEqual({ outcome: "delivered", messageId: `outbox:${id}` });
    expect((await readdir(outbox)).sort()).toEqual([`${id}.eml.txt`, `${id}.html`]);
    expect(await readFile(join(outbox, `${id}.eml.txt`), "utf8")).toBe(
      [
        `From: ${m.from}`,
        `To: ${m.to}`,
        `Reply-To: ${m.replyTo}`,
        `Subject: ${m.subject}`,
        "X-Tag: lead-brief",
        `X-Lead-Id: ${id}`,
        "",
        "the text",
        "",
      ].join("\n"),
    );
    expect(await readFile(join(outbox, `${id}.html`), "utf8")).toBe("<p>the html</p>");
    // Sent again, the first text stays.
    expect(await mailer.send({ ...m, text: "another text" })).toEqual({ outcome: "delivered", messageId: `outbox:${id}` });
    expect(await readFile(join(outbox, `${id}.eml.txt`), "utf8")).toContain("\n\nthe text\n");
    expect(await mailer.findSent(m)).toBe(`outbox:${id}`);
  });

  it("leaves out the headers a message does not have", async () => {
    const outbox = join(dir, "alert");
    const alert = message({
      replyTo: undefined,
      tag: "leads-held",
      metadata: { alert_id: "leads-held-2050-09-01-day" },
      idField: "alert_id",
    });
    await outboxMailer(outbox).send(alert);
    const text = await readFile(join(outbox, "leads-held-2050-09-01-day.eml.txt"), "utf8");
    expect(text.split("\n\n")[0]!.split("\n")).toEqual([
      `From: ${alert.from}`,
      `To: ${alert.to}`,
      `Subject: ${alert.subject}`,
      "X-Tag: leads-held",
    ]);
  });
});

describe("the mailer the environment picks", () => {
  const env = (variables: Record<string, string>) => settingsFrom((name) => variables[name]);
  afterEach(() => vi.restoreAllMocks());

  it("is Postmark with a token, a recipient and a sender", () => {
    const picked = mailerFromEnv(env({ POSTMARK_SERVER_TOKEN: "t", LEADS_TO: "to@studio.example", LEADS_FROM: "from@studio.example" }));
    expect([picked.mailer.kind, picked.from, picked.to]).toEqual(["postmark", "from@studio.example", "to@studio.example"]);
  });

  it.each([
    ["no recipient", { LEADS_FROM: "from@studio.example" }],
    ["no sender", { LEADS_TO: "to@studio.example" }],
  ])("refuses a Postmark token with %s", (_, addresses) => {
    expect(() => mailerFromEnv(env({ POSTMARK_SERVER_TOKEN: "t", ...addresses }))).toThrow(
      new ConfigurationError(
        "POSTMARK_SERVER_TOKEN is set but LEADS_TO or LEADS_FROM is not: lead e-mails need a recipient and a sender signature",
      ),
    );
  });

  it("is the outbox without a token where npm start names one", () => {
    const picked = mailerFromEnv(env({ FRONTDOOR_OUTBOX_DIR: ".data/outbox", LEADS_TO: "to@x.example", LEADS_FROM: "from@x.example" }));
    expect([picked.mailer.kind, picked.from, picked.to]).toEqual(["outbox .data/outbox", "from@x.example", "to@x.example"]);
  });

  it("otherwise sends nothing: every attempt is to be tried again, and says why", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const picked = mailerFromEnv(env({}));
    const reason = "POSTMARK_SERVER_TOKEN is not set: leads are recorded and kept pending until Postmark is configured";
    expect([picked.mailer.kind, picked.from, picked.to]).toEqual(["unconfigured", "unconfigured", "unconfigured"]);
    expect(await picked.mailer.send(message())).toEqual({ outcome: "transient", reason });
    expect(logged).toHaveBeenCalledWith(`CONFIGURATION ERROR: ${reason}`);
    expect(await picked.mailer.findSent(message())).toBeNull();
    expect(mailerFromEnv(env({ LEADS_TO: "to@x.example", LEADS_FROM: "from@x.example" }))).toMatchObject({
      from: "from@x.example",
      to: "to@x.example",
    });
  });
});
