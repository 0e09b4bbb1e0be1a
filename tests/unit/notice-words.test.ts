import { describe, expect, it } from "vitest";
import { callNoticeMessage } from "../../src/briefs/call-notice.ts";
import { heldAlertId, heldAlertMessage, type HeldAlert, type HeldReason } from "../../src/briefs/held.ts";
import { callNoticeFor } from "../support/call-notice.ts";

/**
 * The studio's two notices, word for word: the e-mail that an intro call was booked (or booked and cancelled) for a
 * lead, and each kind of held-leads alert. They carry only the studio's own words, so the whole text is the test.
 */
const addresses = { from: "website@studio.example", to: "leads@studio.example", studio: "Kestrel <Studio>" };

describe("the e-mail that a call was booked for a lead, word for word", () => {
  const notice = callNoticeFor("lead_0123456789abcdefghjk");

  it("gives the time in both zones when they differ", () => {
    const { subject, text, html } = callNoticeMessage(notice, null, addresses);
    expect({ subject, text, html }).toMatchInlineSnapshot(`
      {
        "html": "<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">
      <h1 style="font-size: 20px;">Intro call booked for lead lead_0123456789abcdefghjk</h1>
      <p>The agent that filed the brief booked the intro call for Tuesday, 1 December 2026 at 09:00 (America/Los_Angeles) (Tuesday, 1 December 2026 at 17:00 (Europe/London) for the person), booking bk_0123456789abcdefghjk.</p>
      <p>Cal.com has the booking and sent the invitation; it tells the studio as usual, and of any cancellation.</p>
      <p>The brief is in the e-mail about lead lead_0123456789abcdefghjk, whose thread this continues.</p>
      </body></html>",
        "subject": "Re: Lead lead_0123456789abcdefghjk",
        "text": "Intro call booked for lead lead_0123456789abcdefghjk
      The agent that filed the brief booked the intro call for Tuesday, 1 December 2026 at 09:00 (America/Los_Angeles) (Tuesday, 1 December 2026 at 17:00 (Europe/London) for the person), booking bk_0123456789abcdefghjk.
      Cal.com has the booking and sent the invitation; it tells the studio as usual, and of any cancellation.
      The brief is in the e-mail about lead lead_0123456789abcdefghjk, whose thread this continues.",
      }
    `);
  });

  it("gives it once in the studio's zone, and says when it was cancelled", () => {
    const cancelled = { ...notice, time_zone: "America/Los_Angeles", cancelled_at: "2026-11-24T08:15:00.000Z" };
    const { text } = callNoticeMessage(cancelled, null, addresses);
    expect(text).toMatchInlineSnapshot(`
      "Intro call booked and cancelled for lead lead_0123456789abcdefghjk
      The agent that filed the brief booked the intro call for Tuesday, 1 December 2026 at 09:00 (America/Los_Angeles), booking bk_0123456789abcdefghjk.
      It cancelled it on Tuesday, 24 November 2026 at 00:15 (America/Los_Angeles): there is no call. Cal.com has told the studio of both.
      The brief is in the e-mail about lead lead_0123456789abcdefghjk, whose thread this continues."
    `);
  });

  it("keeps a long subject to 200 characters", () => {
    const lead_id = `lead_${"x".repeat(300)}`;
    expect(callNoticeMessage({ ...notice, lead_id }, null, addresses).subject).toBe(`Re: Lead ${lead_id}`.slice(0, 200));
  });
});

describe("each held-leads alert, word for word", () => {
  const day = "2031-03-14";
  const alert = (reason: HeldReason, extra: Partial<HeldAlert> = {}): HeldAlert => ({
    day,
    limit: 50,
    created_at: `${day}T10:00:00.000Z`,
    delivery: { state: "pending", attempts: 0 },
    reason,
    id: heldAlertId(day, reason),
    ...extra,
  });
  const grant = { address: "203.0.113.9", owner: "ga_AAAAAAAAAAAAAAAAAAAAAA" };

  it("for a grant past its share", () => {
    const { subject, text, html } = heldAlertMessage(alert("owner", grant), { today: 3, all: 5, fromSource: 2 }, addresses);
    expect({ subject, text, html }).toMatchInlineSnapshot(`
      {
        "html": "<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">
      <h1 style="font-size: 20px;">Leads are being held for Kestrel &lt;Studio&gt;</h1>
      <p>Leads filed with the grant ga_AAAAAAAAAAAAAAAAAAAAAA from the address 203.0.113.9 are being held: one grant, or the contact form from one address, may have at most 5 of the 50 leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (a tenth), and it has had them.</p>
      <p>Leads from every other grant, and from the contact form, are still e-mailed as they arrive, each up to its own share of 5, until their address has had its 25 or the day its 50. If a whole address&#39;s leads, or every lead, are held on 2031-03-14, a separate e-mail says so.</p>
      <p>Every brief is still recorded and every client got its usual answer; held leads wait here instead of being e-mailed.</p>
      <p>Held from that grant on 2031-03-14 so far: 2. Held from 2031-03-14 so far: 3. Held in all, waiting for release: 5.</p>
      <p>npm run leads -- held shows the address and the grant (or the contact form) each held lead came from, including any held later on 2031-03-14.</p>
      <ul><li>See them: <code>npm run leads -- held</code></li><li>E-mail one: <code>npm run leads -- release &lt;lead id&gt;</code></li><li>E-mail all of them: <code>npm run leads -- release --all</code></li></ul>
      <p style="color: #55524b;">At most three of these e-mails come a day, one for each kind of hold: a grant or the contact form past its share, an address past its share, and the day&#39;s limit. This is 2031-03-14&#39;s about a grant or the contact form past its share: any source held the same way later that day gets no e-mail of its own, and the counts above keep growing after it. From the next UTC day, leads are e-mailed again up to the limit and each source&#39;s share.</p>
      </body></html>",
        "subject": "Leads held on 2031-03-14 (UTC), 3 so far: the grant ga_AAAAAAAAAAAAAAAAAAAAAA at 203.0.113.9 past its share",
        "text": "Leads are being held for Kestrel <Studio>

      Leads filed with the grant ga_AAAAAAAAAAAAAAAAAAAAAA from the address 203.0.113.9 are being held: one grant, or the contact form from one address, may have at most 5 of the 50 leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (a tenth), and it has had them.

      Leads from every other grant, and from the contact form, are still e-mailed as they arrive, each up to its own share of 5, until their address has had its 25 or the day its 50. If a whole address's leads, or every lead, are held on 2031-03-14, a separate e-mail says so.

      Every brief is still recorded and every client got its usual answer; held leads wait here instead of being e-mailed.

      Held from that grant on 2031-03-14 so far: 2. Held from 2031-03-14 so far: 3. Held in all, waiting for release: 5.

      npm run leads -- held shows the address and the grant (or the contact form) each held lead came from, including any held later on 2031-03-14.

      See them:           npm run leads -- held
      E-mail one:         npm run leads -- release <lead id>
      E-mail all of them: npm run leads -- release --all

      At most three of these e-mails come a day, one for each kind of hold: a grant or the contact form past its share, an address past its share, and the day's limit. This is 2031-03-14's about a grant or the contact form past its share: any source held the same way later that day gets no e-mail of its own, and the counts above keep growing after it. From the next UTC day, leads are e-mailed again up to the limit and each source's share.",
      }
    `);
  });

  it("for the contact form at one address past its share", () => {
    const form = alert("owner", { address: "203.0.113.9", owner: "form:203.0.113.9" });
    expect(heldAlertMessage(form, { today: 1, all: 1, fromSource: 1 }, addresses).text.split("\n").slice(0, 3)).toMatchInlineSnapshot(`
      [
        "Leads are being held for Kestrel <Studio>",
        "",
        "Leads sent through the contact form from the address 203.0.113.9 are being held: one grant, or the contact form from one address, may have at most 5 of the 50 leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (a tenth), and it has had them.",
      ]
    `);
  });

  it("for an address past its share", () => {
    const { subject, text } = heldAlertMessage(
      alert("address", { address: "2001:db8::7" }),
      { today: 4, all: 4, fromSource: 4 },
      addresses,
    );
    expect({ subject, why: text.split("\n\n").slice(1, 3) }).toMatchInlineSnapshot(`
      {
        "subject": "Leads held on 2031-03-14 (UTC), 4 so far: the address 2001:db8::7 past its share",
        "why": [
          "Leads filed from the address 2001:db8::7 are being held: one address, every grant and the contact form from it together, may have at most 25 of the 50 leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (half), and it has had them.",
          "Leads from every other address are still e-mailed as they arrive, each source up to its own share, until the day has had its 50. If every lead is held on 2031-03-14, a separate e-mail says so.",
        ],
      }
    `);
    expect(text).toContain("Held from that address on 2031-03-14 so far: 4. Held from 2031-03-14 so far: 4.");
  });

  it("for the day's limit, naming the addresses that used most of it", () => {
    const busiest = [
      { address: "203.0.113.9", emailed: 20 },
      { address: "2001:db8::7", emailed: 9 },
    ];
    const { subject, text } = heldAlertMessage(alert("day"), { today: 2, all: 2, busiest }, addresses);
    expect({ subject, text }).toMatchInlineSnapshot(`
      {
        "subject": "Leads held on 2031-03-14 (UTC), 2 so far: the day's limit reached, every lead held",
        "text": "Leads are being held for Kestrel <Studio>

      More briefs arrived on 2031-03-14 (UTC) than LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (50 a day), so every lead is now held, from every address, grant and the contact form alike: none is e-mailed until you release it, or until the next UTC day (2031-03-15) begins.

      The addresses whose leads were e-mailed most on 2031-03-14: 203.0.113.9 (20), 2001:db8::7 (9).

      Every brief is still recorded and every client got its usual answer; held leads wait here instead of being e-mailed.

      Held from 2031-03-14 so far: 2. Held in all, waiting for release: 2.

      npm run leads -- held shows the address and the grant (or the contact form) each held lead came from, including any held later on 2031-03-14.

      See them:           npm run leads -- held
      E-mail one:         npm run leads -- release <lead id>
      E-mail all of them: npm run leads -- release --all

      At most three of these e-mails come a day, one for each kind of hold: a grant or the contact form past its share, an address past its share, and the day's limit. This is 2031-03-14's about the day's limit: any source held the same way later that day gets no e-mail of its own, and the counts above keep growing after it. From the next UTC day, leads are e-mailed again up to the limit and each source's share.",
      }
    `);
  });

  it("for the day's limit with nobody e-mailed yet, naming no address", () => {
    const { text } = heldAlertMessage(alert("day"), { today: 1, all: 1 }, addresses);
    expect(text).not.toContain("e-mailed most");
    expect(text).not.toContain("Stryker");
    expect(text.split("\n\n").length).toBe(
      heldAlertMessage(alert("day"), { today: 1, all: 1, busiest: [] }, addresses).text.split("\n\n").length,
    );
  });

  it("for a limit of 0", () => {
    const { subject, text } = heldAlertMessage(alert("day", { limit: 0 }), { today: 1, all: 1 }, addresses);
    expect({ subject, text: [text.split("\n").slice(0, 3), text.split("\n").at(-1)] }).toMatchInlineSnapshot(`
      {
        "subject": "Leads held on 2031-03-14 (UTC), 1 so far: LEADS_EMAIL_DAILY_LIMIT is 0, every lead held",
        "text": [
          [
            "Leads are being held for Kestrel <Studio>",
            "",
            "LEADS_EMAIL_DAILY_LIMIT is 0, so every lead is held instead of e-mailed: no lead from anyone is e-mailed until you release it, or until the limit is raised.",
          ],
          "At most three of these e-mails come a day, one for each kind of hold: a grant or the contact form past its share, an address past its share, and the day's limit. This is 2031-03-14's about the day's limit: any source held the same way later that day gets no e-mail of its own, and the counts above keep growing after it. From the next UTC day, leads are e-mailed again up to the limit and each source's share.",
        ],
      }
    `);
  });

  it("says what its reason says, whatever source fields it carries", () => {
    const words = (a: HeldAlert) => heldAlertMessage(a, { today: 1, all: 1, fromSource: 1 }, addresses).text;
    const dayWords = words(alert("day"));
    expect(words(alert("day", grant))).toBe(dayWords);
    // A reason without the source it needs falls back to the day's words rather than naming nobody.
    expect(words(alert("owner", { address: grant.address }))).toBe(dayWords);
    expect(words(alert("owner", { owner: grant.owner }))).toBe(dayWords);
    expect(words(alert("address"))).toBe(dayWords);
  });
});
