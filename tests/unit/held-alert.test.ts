import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSetting } from "../../src/config/settings.ts";
import { emailShares, heldAlertId, heldAlertMessage, utcDay, type HeldAlert } from "../../src/briefs/held.ts";
import { outboxMailer } from "../../src/briefs/mailer.ts";
import { ConfigurationError } from "../../src/config/env.ts";
import { resolveConfig } from "../../scripts/runtime/config.ts";

describe("LEADS_EMAIL_DAILY_LIMIT", () => {
  it("defaults to 50 and takes any whole number, 0 included", () => {
    expect(parseSetting("LEADS_EMAIL_DAILY_LIMIT", undefined)).toBe(50);
    expect(parseSetting("LEADS_EMAIL_DAILY_LIMIT", "")).toBe(50);
    expect(parseSetting("LEADS_EMAIL_DAILY_LIMIT", "0")).toBe(0);
    expect(parseSetting("LEADS_EMAIL_DAILY_LIMIT", " 200 ")).toBe(200);
  });

  it.each(["-1", "1.5", "ten", "1e3"])("refuses %s as a configuration error", (value) => {
    expect(() => parseSetting("LEADS_EMAIL_DAILY_LIMIT", value)).toThrow(ConfigurationError);
    expect(() => parseSetting("LEADS_EMAIL_DAILY_LIMIT", value)).toThrow(/LEADS_EMAIL_DAILY_LIMIT must be a whole number/);
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

describe("the held-leads alerts", () => {
  const alert: HeldAlert = {
    day: "2031-03-14",
    limit: 50,
    created_at: "2031-03-14T10:00:00.000Z",
    delivery: { state: "pending", attempts: 0 },
    reason: "day",
    id: heldAlertId("2031-03-14", "day"),
  };
  const addresses = { from: "website@studio.example", to: "leads@studio.example", studio: "Kestrel <Studio>" };
  const grant = {
    ...alert,
    reason: "owner" as const,
    address: "203.0.113.9",
    owner: "ga_AAAAAAAAAAAAAAAAAAAAAA",
    id: heldAlertId("2031-03-14", "owner"),
  };
  const address = { ...alert, reason: "address" as const, address: "2001:db8::7", id: heldAlertId("2031-03-14", "address") };

  it("says how many leads are held, why, and what to run, and names itself for the never-twice search, one name a kind", () => {
    const m = heldAlertMessage(alert, { today: 3, all: 5 }, addresses);
    expect(m).toMatchObject({ to: "leads@studio.example", tag: "leads-held", metadata: { alert_id: "leads-held-2031-03-14-day" } });
    expect(m.idField).toBe("alert_id");
    expect(m.replyTo).toBeUndefined();
    expect(m.text).toContain("LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (50 a day)");
    expect(m.text).toContain("Held from 2031-03-14 so far: 3. Held in all, waiting for release: 5.");
    for (const command of ["npm run leads -- held", "npm run leads -- release <lead id>", "npm run leads -- release --all"]) {
      expect(m.text).toContain(command);
      expect(m.html).toContain(command.replace("<", "&lt;").replace(">", "&gt;"));
    }
    expect(m.html).toContain("Kestrel &lt;Studio&gt;");
    expect(m.html).not.toContain("<Studio>");
    const ids = [alert, grant, address].map((a) => heldAlertMessage(a, { today: 1, all: 1 }, addresses).metadata.alert_id);
    expect(ids).toEqual(["leads-held-2031-03-14-day", "leads-held-2031-03-14-owner", "leads-held-2031-03-14-address"]);
    // One owed when a day had a single alert keeps its name, so that a retry still finds it if it went out.
    const { id: _, ...older } = grant;
    expect(heldAlertMessage(older, { today: 1, all: 1 }, addresses).metadata.alert_id).toBe("leads-held-2031-03-14");
  });

  it("gives each kind a subject of its own, so that a later, wider hold is not read as the same news", () => {
    const subjects = [
      heldAlertMessage(grant, { today: 3, all: 5, fromSource: 2 }, addresses),
      heldAlertMessage({ ...grant, owner: "form:203.0.113.9" }, { today: 1, all: 1, fromSource: 1 }, addresses),
      heldAlertMessage(address, { today: 4, all: 4, fromSource: 4 }, addresses),
      heldAlertMessage(alert, { today: 1, all: 1 }, addresses),
      heldAlertMessage({ ...alert, limit: 0 }, { today: 1, all: 1 }, addresses),
    ].map((m) => m.subject);
    expect(subjects).toEqual([
      "Leads held on 2031-03-14 (UTC), 3 so far: the grant ga_AAAAAAAAAAAAAAAAAAAAAA at 203.0.113.9 past its share",
      "Leads held on 2031-03-14 (UTC), 1 so far: the contact form at 203.0.113.9 past its share",
      "Leads held on 2031-03-14 (UTC), 4 so far: the address 2001:db8::7 past its share",
      "Leads held on 2031-03-14 (UTC), 1 so far: the day's limit reached, every lead held",
      "Leads held on 2031-03-14 (UTC), 1 so far: LEADS_EMAIL_DAILY_LIMIT is 0, every lead held",
    ]);
  });

  it("for a grant: names it, says everyone else is still e-mailed up to their shares, and that wider holds get their own e-mail", () => {
    const m = heldAlertMessage(grant, { today: 3, all: 5, fromSource: 2 }, addresses);
    expect(m.text).toContain(
      "Leads filed with the grant ga_AAAAAAAAAAAAAAAAAAAAAA from the address 203.0.113.9 are being held: one grant, or the contact form from one address, may have at most 5 of the 50 leads a day",
    );
    expect(m.text).toContain(
      "Leads from every other grant, and from the contact form, are still e-mailed as they arrive, each up to its own share of 5, until their address has had its 25 or the day its 50.",
    );
    expect(m.text).toContain("If a whole address's leads, or every lead, are held on 2031-03-14, a separate e-mail says so.");
    expect(m.text).toContain("Held from that grant on 2031-03-14 so far: 2. Held from 2031-03-14 so far: 3.");
    expect(m.text).toContain("npm run leads -- held shows the address and the grant");
    expect(m.text).toContain(
      "At most three of these e-mails come a day, one for each kind of hold: a grant or the contact form past its share, an address past its share, and the day's limit. This is 2031-03-14's about a grant or the contact form past its share: any source held the same way later that day gets no e-mail of its own",
    );
    expect(m.html).toContain("Held from that grant on 2031-03-14 so far: 2.");
    expect(m.text).not.toContain("Leads from anyone else");

    const form = heldAlertMessage({ ...grant, owner: "form:203.0.113.9" }, { today: 1, all: 1, fromSource: 1 }, addresses);
    expect(form.text).toContain("Leads sent through the contact form from the address 203.0.113.9 are being held");
    expect(form.text).toContain("Leads from every grant, and from the contact form at other addresses, are still e-mailed as they arrive");
    expect(form.text).toContain("Held from the contact form at that address on 2031-03-14 so far: 1.");
  });

  it("for an address: names it, says only other addresses are still e-mailed, and that the day's limit gets its own e-mail", () => {
    const m = heldAlertMessage(address, { today: 4, all: 4, fromSource: 4 }, addresses);
    expect(m.text).toContain(
      "Leads filed from the address 2001:db8::7 are being held: one address, every grant and the contact form from it together, may have at most 25 of the 50",
    );
    expect(m.text).toContain(
      "Leads from every other address are still e-mailed as they arrive, each source up to its own share, until the day has had its 50. If every lead is held on 2031-03-14, a separate e-mail says so.",
    );
    expect(m.text).toContain("Held from that address on 2031-03-14 so far: 4.");
    expect(m.text).toContain("This is 2031-03-14's about an address past its share");
    expect(m.text).not.toMatch(/every other grant|anyone else/);
  });

  it("for the day's limit: names no one source held, says nobody is e-mailed until a release or the next day, and who used the day", () => {
    const m = heldAlertMessage(
      alert,
      {
        today: 1,
        all: 1,
        busiest: [
          { address: "203.0.113.9", emailed: 25 },
          { address: "198.51.100.7", emailed: 24 },
        ],
      },
      addresses,
    );
    expect(m.text).toContain(
      "More briefs arrived on 2031-03-14 (UTC) than LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (50 a day), so every lead is now held, from every address, grant and the contact form alike: none is e-mailed until you release it, or until the next UTC day (2031-03-15) begins.",
    );
    expect(m.text).toContain("The addresses whose leads were e-mailed most on 2031-03-14: 203.0.113.9 (25), 198.51.100.7 (24).");
    expect(m.text).toContain("This is 2031-03-14's about the day's limit");
    expect(m.text).not.toMatch(/Held from that|still e-mailed/);
    // Nobody e-mailed yet (or the counts gone): nothing to name.
    expect(heldAlertMessage(alert, { today: 1, all: 1, busiest: [] }, addresses).text).not.toContain("e-mailed most");
    // An alert owed before sources were shared has no reason: the day's limit.
    const { reason: _, ...older } = alert;
    expect(heldAlertMessage(older, { today: 1, all: 1 }, addresses).text).toContain("every lead is now held");
    // The last day of a month and of a year turn over by the calendar.
    expect(heldAlertMessage({ ...alert, day: "2031-12-31" }, { today: 1, all: 1 }, addresses).text).toContain("(2032-01-01) begins");
  });

  it("says plainly when the limit is 0", () => {
    const m = heldAlertMessage({ ...alert, limit: 0 }, { today: 1, all: 1 }, addresses);
    expect(m.text).toContain("LEADS_EMAIL_DAILY_LIMIT is 0, so every lead is held instead of e-mailed");
    expect(m.text).not.toContain("next UTC day (");
  });

  it("lands in the local outbox under its own name, where the never-twice check finds it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "frontdoor-alert-outbox-"));
    try {
      const mailer = outboxMailer(dir);
      const m = heldAlertMessage(alert, { today: 1, all: 1 }, addresses);
      expect(await mailer.findSent(m)).toBeNull();
      expect(await mailer.send(m)).toEqual({ outcome: "delivered", messageId: "outbox:leads-held-2031-03-14-day" });
      expect((await readdir(dir)).sort()).toEqual(["leads-held-2031-03-14-day.eml.txt", "leads-held-2031-03-14-day.html"]);
      const text = await readFile(join(dir, "leads-held-2031-03-14-day.eml.txt"), "utf8");
      expect(text).toMatch(/^From: website@studio.example\nTo: leads@studio.example\nSubject: Leads held on 2031-03-14/);
      expect(text).not.toContain("Reply-To");
      expect(await mailer.findSent(m)).toBe("outbox:leads-held-2031-03-14-day");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("dates by the UTC day", () => {
    expect(utcDay(Date.parse("2031-03-14T23:59:59.999Z"))).toBe("2031-03-14");
    expect(utcDay(Date.parse("2031-03-15T00:30:00+01:00"))).toBe("2031-03-14");
  });
});
