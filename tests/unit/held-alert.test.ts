import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dailyEmailLimitFrom, emailShares, heldAlertMessage, utcDay, type HeldAlert } from "../../src/briefs/held.ts";
import { outboxMailer } from "../../src/briefs/mailer.ts";
import { ConfigurationError } from "../../src/config/env.ts";
import { resolveConfig } from "../../scripts/runtime/config.ts";

describe("LEADS_EMAIL_DAILY_LIMIT", () => {
  it("defaults to 50 and takes any whole number, 0 included", () => {
    expect(dailyEmailLimitFrom(undefined)).toBe(50);
    expect(dailyEmailLimitFrom("")).toBe(50);
    expect(dailyEmailLimitFrom("0")).toBe(0);
    expect(dailyEmailLimitFrom(" 200 ")).toBe(200);
  });

  it.each(["-1", "1.5", "ten", "1e3"])("refuses %s as a configuration error", (value) => {
    expect(() => dailyEmailLimitFrom(value)).toThrow(ConfigurationError);
    expect(() => dailyEmailLimitFrom(value)).toThrow(/LEADS_EMAIL_DAILY_LIMIT must be a whole number/);
  });

  it("reaches the local runtime's functions, and a bad value stops npm start", () => {
    expect(resolveConfig({ LEADS_EMAIL_DAILY_LIMIT: "7" }, {}).env.LEADS_EMAIL_DAILY_LIMIT).toBe("7");
    expect(resolveConfig({}, { LEADS_EMAIL_DAILY_LIMIT: "0" }).env.LEADS_EMAIL_DAILY_LIMIT).toBe("0");
    expect(() => resolveConfig({ LEADS_EMAIL_DAILY_LIMIT: "many" }, {})).toThrow(/LEADS_EMAIL_DAILY_LIMIT/);
  });
});

describe("a source's share of the day's e-mail", () => {
  it("is half the limit for an address and a tenth for a grant, rounded up, so a small limit still e-mails someone", () => {
    expect(emailShares(50)).toEqual({ address: 25, owner: 5 });
    expect(emailShares(200)).toEqual({ address: 100, owner: 20 });
    expect(emailShares(7)).toEqual({ address: 4, owner: 1 });
    expect(emailShares(1)).toEqual({ address: 1, owner: 1 });
    expect(emailShares(0)).toEqual({ address: 0, owner: 0 });
  });
});

describe("the held-leads alert", () => {
  const alert: HeldAlert = {
    day: "2031-03-14",
    limit: 50,
    created_at: "2031-03-14T10:00:00.000Z",
    delivery: { state: "pending", attempts: 0 },
  };
  const addresses = { from: "website@studio.example", to: "leads@studio.example", studio: "Kestrel <Studio>" };

  it("says how many leads are held, why, and what to run, and names itself for the never-twice search", () => {
    const m = heldAlertMessage(alert, { today: 3, all: 5 }, addresses);
    expect(m).toMatchObject({ to: "leads@studio.example", tag: "leads-held", metadata: { alert_id: "leads-held-2031-03-14" } });
    expect(m.idField).toBe("alert_id");
    expect(m.replyTo).toBeUndefined();
    expect(m.subject).toBe("Leads held on 2031-03-14 (UTC): 3 so far");
    expect(m.text).toContain("LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (50 a day)");
    expect(m.text).toContain("Held from 2031-03-14 so far: 3. Held in all, waiting for release: 5.");
    for (const command of ["npm run leads -- held", "npm run leads -- release <lead id>", "npm run leads -- release --all"]) {
      expect(m.text).toContain(command);
      expect(m.html).toContain(command.replace("<", "&lt;").replace(">", "&gt;"));
    }
    expect(m.html).toContain("Kestrel &lt;Studio&gt;");
    expect(m.html).not.toContain("<Studio>");
  });

  it("names the source held for its share, how many of its leads are held, and nothing from any brief", () => {
    const grant = { ...alert, reason: "owner" as const, address: "203.0.113.9", owner: "ga_AAAAAAAAAAAAAAAAAAAAAA" };
    const m = heldAlertMessage(grant, { today: 3, all: 5, fromSource: 2 }, addresses);
    expect(m.subject).toBe("Leads held on 2031-03-14 (UTC): 3 so far, first from ga_AAAAAAAAAAAAAAAAAAAAAA at 203.0.113.9");
    expect(m.text).toContain(
      "Leads filed with the grant ga_AAAAAAAAAAAAAAAAAAAAAA from the address 203.0.113.9 are being held: one grant, or the contact form from one address, may have at most 5 of the 50 leads a day",
    );
    expect(m.text).toContain("Leads from anyone else are still e-mailed as they arrive, while the day's 50 last.");
    expect(m.text).toContain("Held from that grant on 2031-03-14 so far: 2. Held from 2031-03-14 so far: 3.");
    expect(m.text).toContain("npm run leads -- held shows the address and the grant");
    expect(m.html).toContain("Held from that grant on 2031-03-14 so far: 2.");

    const form = heldAlertMessage({ ...grant, owner: "form:203.0.113.9" }, { today: 1, all: 1, fromSource: 1 }, addresses);
    expect(form.subject).toBe("Leads held on 2031-03-14 (UTC): 1 so far, first from the contact form at 203.0.113.9");
    expect(form.text).toContain("Leads sent through the contact form from the address 203.0.113.9 are being held");
    expect(form.text).toContain("Held from the contact form at that address on 2031-03-14 so far: 1.");

    const address = heldAlertMessage(
      { ...alert, reason: "address", address: "2001:db8::7" },
      { today: 4, all: 4, fromSource: 4 },
      addresses,
    );
    expect(address.subject).toBe("Leads held on 2031-03-14 (UTC): 4 so far, first from 2001:db8::7");
    expect(address.text).toContain(
      "Leads filed from the address 2001:db8::7 are being held: one address, every grant and the contact form from it together, may have at most 25 of the 50",
    );
    expect(address.text).toContain("Held from that address on 2031-03-14 so far: 4.");
  });

  it("names no source when the day's limit held the lead: every source is held alike", () => {
    const m = heldAlertMessage({ ...alert, reason: "day" }, { today: 1, all: 1 }, addresses);
    expect(m.subject).toBe("Leads held on 2031-03-14 (UTC): 1 so far");
    expect(m.text).not.toMatch(/Held from that/);
    expect(m.text).not.toContain("anyone else");
  });

  it("says plainly when the limit is 0", () => {
    expect(heldAlertMessage({ ...alert, limit: 0 }, { today: 1, all: 1 }, addresses).text).toContain(
      "LEADS_EMAIL_DAILY_LIMIT is 0, so every lead is held",
    );
  });

  it("lands in the local outbox under its own name, where the never-twice check finds it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "frontdoor-alert-outbox-"));
    try {
      const mailer = outboxMailer(dir);
      const m = heldAlertMessage(alert, { today: 1, all: 1 }, addresses);
      expect(await mailer.findSent(m)).toBeNull();
      expect(await mailer.send(m)).toEqual({ outcome: "delivered", messageId: "outbox:leads-held-2031-03-14" });
      expect((await readdir(dir)).sort()).toEqual(["leads-held-2031-03-14.eml.txt", "leads-held-2031-03-14.html"]);
      const text = await readFile(join(dir, "leads-held-2031-03-14.eml.txt"), "utf8");
      expect(text).toMatch(/^From: website@studio.example\nTo: leads@studio.example\nSubject: Leads held on 2031-03-14/);
      expect(text).not.toContain("Reply-To");
      expect(await mailer.findSent(m)).toBe("outbox:leads-held-2031-03-14");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("dates by the UTC day", () => {
    expect(utcDay(Date.parse("2031-03-14T23:59:59.999Z"))).toBe("2031-03-14");
    expect(utcDay(Date.parse("2031-03-15T00:30:00+01:00"))).toBe("2031-03-14");
  });
});
