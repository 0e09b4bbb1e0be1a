import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/browser.ts";
import { standInMessages } from "../support/postmark-standin.ts";

/** The contact form as a person uses it, in Debian's Chromium: no JavaScript needed, errors by the fields. */
const base = inject("baseUrl");
const postmark = inject("postmark");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const sent = async () => (await standInMessages(postmark)).sent;

describe("the contact form", () => {
  it("shows every error next to its field, keeps what was typed, then files the brief once", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/contact`);
    const company = `Hopper Compilers ${Date.now()}`;
    await page.getByLabel("Company").fill(company);
    await page.getByLabel("Work e-mail").fill("grace@");
    await Promise.all([page.waitForURL(`${base}/contact`), page.getByRole("button", { name: "Send the brief" }).click()]);

    const summary = page.getByRole("alert");
    expect(await summary.textContent()).toContain("Please check these 2 fields");
    expect(await page.locator("#full_name-error").textContent()).toBe("Enter your name.");
    expect(await page.locator("#work_email-error").textContent()).toMatch(/^Work e-mail must be an e-mail address/);
    expect(await page.getByLabel("Work e-mail").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Company").inputValue()).toBe(company);

    await page.getByLabel("Your name").fill("Grace Hopper");
    await page.getByLabel("Work e-mail").fill("grace@hopper.example");
    await page.getByLabel("Site size").selectOption("growth-site");
    await page.getByLabel("About the project").fill("A new site for our compiler.\nLaunch in spring.");
    await Promise.all([page.waitForURL(`${base}/contact`), page.getByRole("button", { name: "Send the brief" }).click()]);

    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Thank you, Grace.");
    expect(await page.textContent("main")).toContain("grace@hopper.example");
    const reference = /Reference: (lead_[0-9a-z]{20})/.exec((await page.textContent("main")) ?? "")?.[1];
    expect(reference).toBeDefined();
    await expect
      .poll(async () => (await sent()).filter((m) => (m.body.Metadata as { lead_id: string }).lead_id === reference).length)
      .toBe(1);
    const mail = (await sent()).find((m) => (m.body.Metadata as { lead_id: string }).lead_id === reference)!.body;
    expect(mail).toMatchObject({ ReplyTo: "grace@hopper.example", Metadata: { channel: "form" } });
    expect(mail.TextBody).toContain("Site size: growth-site");
    await context.close();
  });
});

describe("spam protection", () => {
  const submit = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${base}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });

  it("answers a filled honeypot as if it worked, and files nothing", async () => {
    const before = { sent: (await sent()).length, leads: await store.zcard("leads") };
    const res = await submit(
      { full_name: "Bot", company_name: `Spam ${Date.now()}`, work_email: "bot@spam.example", website: "https://spam.example" },
      { Origin: new URL(base).origin },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thank you");
    // A brief is recorded before it is answered, and e-mailed only once recorded: nothing recorded, nothing to send.
    expect(await store.zcard("leads")).toBe(before.leads);
    expect((await sent()).length).toBe(before.sent);
  });

  it("refuses a post from another site, and one that names no page of this site at all (no Origin, no Referer)", async () => {
    const before = await store.zcard("leads");
    const fields = { full_name: "X", company_name: `Y ${Date.now()}`, work_email: "x@y.example" };
    const refused: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      {},
      { Referer: "https://evil.example/contact" },
      { Referer: `${base}.evil.example/contact` },
    ];
    for (const headers of refused) {
      const res = await submit(fields, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).toContain("Not sent");
    }
    expect(await store.zcard("leads")).toBe(before);
  });

  it("takes a post from this site's page: by its Origin, or by its Referer when a browser sends no Origin", async () => {
    const taken: Record<string, string>[] = [{ Origin: new URL(base).origin }, { Referer: `${base}/contact` }];
    for (const headers of taken) {
      const res = await submit({ full_name: "Ada", company_name: `Engines ${Date.now()}`, work_email: "ada@engines.example" }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(await res.text()).toContain("Thank you");
    }
  });
});

describe("the form's door", () => {
  const origin = { Origin: new URL(base).origin };
  const post = (body: BodyInit, contentType: string) =>
    fetch(`${base}/contact`, { method: "POST", headers: { ...origin, "Content-Type": contentType }, body });

  it("answers what it cannot read with a page and the condition's own status, and reports the quota it counts", async () => {
    const before = await store.zcard("leads");
    const notAForm = await post("full_name=Ada", "text/plain");
    expect(notAForm.status).toBe(415);
    const tooLong = await post(new URLSearchParams({ message: "x".repeat(40_000) }), "application/x-www-form-urlencoded");
    expect(tooLong.status).toBe(413);
    for (const [res, says] of [
      [notAForm, "It was not sent as a form"],
      [tooLong, "The form was too long to read"],
    ] as const) {
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("ratelimit-policy")).toMatch(/^"contact-form";q=\d+;w=\d+/);
      const page = await res.text();
      expect(page).toContain(says);
      expect(page).toContain("mailto:");
    }
    expect(await store.zcard("leads")).toBe(before);
  });
});
