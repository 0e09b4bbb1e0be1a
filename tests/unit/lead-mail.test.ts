import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { callNoticeMessage, leadMailSettled } from "../../src/briefs/call-notice.ts";
import { leadMessage } from "../../src/briefs/mail.ts";
import { callNoticeFor } from "../support/call-notice.ts";

const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
const lead: Lead = {
  id: "lead_0123456789abcdefghjk",
  received_at: "2026-11-22T04:00:00.000Z",
  channel: "mcp",
  client_id: "client-<b>",
  owner: "ga_0123456789abcdefghijkl",
  brief: {
    full_name: `Ada ${hostile}`,
    company_name: `Engines ${hostile}`,
    work_email: "ada@engines.example",
    message: `Line one\n${hostile}\nLine three`,
    current_website: `https://engines.example/?q=${encodeURIComponent("<x>")}&a=1`,
    time_zone: "Europe/London",
  },
  delivery: { state: "pending", attempts: 0 },
};
const addresses = { from: "Website <website@studio.example>", to: "leads@studio.example", studio: "Kestrel <Studio>" };

/** The lines of the text part that are the studio's own: every line that does not start with ">". */
const ownLines = (text: string) => text.split("\n").filter((line) => !line.startsWith(">"));
/** The studio's own lines of a lead e-mail, whatever the person wrote. */
const header = (l: Lead) => [
  "New project brief for Kestrel <Studio>",
  `Lead id: ${l.id}`,
  `Received ${l.received_at} through ${l.channel} (client ${l.client_id}).`,
  ...(l.possibly_same_person_as
    ? [`Possibly the same person as ${l.possibly_same_person_as} (same work e-mail and company, possibly filed by someone else).`]
    : []),
  `Reply to this e-mail to answer the person at ${l.brief.work_email}.`,
  'Below, every line that starts with ">" is the brief as the person filed it: their words, not the studio\'s.',
  "",
  `----- What the person filed (${l.id}) -----`,
  `----- End of what the person filed (${l.id}) -----`,
];
const quotedBlock = /<blockquote[^>]*>[\s\S]*?<\/blockquote>/g;

describe("the lead e-mail", () => {
  // Built inside each test, not once for the file: a mutation tester switches its mutant on as each test starts.

  it("escapes every value in the HTML body", () => {
    const m = leadMessage(lead, addresses);
    expect(m.html).not.toMatch(/<script|<img|<b>/);
    expect(m.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;");
    expect(m.html).toContain("Kestrel &lt;Studio&gt;");
  });

  it("keeps header values on one line, and never puts the client's text in From", () => {
    const m = leadMessage(lead, addresses);
    for (const header of [m.subject, m.replyTo, m.from, m.to]) expect(header).not.toMatch(/[\r\n]/);
    expect(m.from).toBe("Website <website@studio.example>");
    expect(m.replyTo).toBe("ada@engines.example");
    const forged = leadMessage(
      { ...lead, brief: { ...lead.brief, company_name: "X\r\nBcc: victim@example.com" } },
      { from: "a@b", to: "c@d", studio: "S" },
    );
    expect(forged.subject).toBe("New brief: X Bcc: victim@example.com (Ada " + hostile + ")");
  });

  it("names the person's address alone as the one to reply to, without the line break a stored lead left after it", () => {
    const m = leadMessage({ ...lead, brief: { ...lead.brief, work_email: "ada@engines.example\r\n" } }, addresses);
    expect(m.replyTo).toBe("ada@engines.example");
    expect(ownLines(m.text)).toContain("Reply to this e-mail to answer the person at ada@engines.example.");
  });

  it("cuts the subject to 200 characters when the longest name and company a brief may hold fill it", () => {
    const m = leadMessage({ ...lead, brief: { ...lead.brief, full_name: "A".repeat(120), company_name: "C".repeat(160) } }, addresses);
    expect(m.subject).toBe(`New brief: ${"C".repeat(160)} (${"A".repeat(27)}`);
    expect(m.subject).toHaveLength(200);
  });

  it("carries the lead id in metadata and the text body, with a tag", () => {
    const m = leadMessage(lead, addresses);
    expect(m.metadata).toEqual({ lead_id: lead.id, channel: "mcp" });
    expect(m.tag).toBe("lead-brief");
    expect(m.text).toContain(`Lead id: ${lead.id}`);
    expect(m.text).toContain(`>   Line one\n>   ${hostile}\n>   Line three`);
  });

  it("writes the studio's lines first, then the brief quoted, line by line, between two marks naming the lead id", () => {
    const m = leadMessage(lead, addresses);
    expect(m.text).toBe(
      [
        "New project brief for Kestrel <Studio>",
        "Lead id: lead_0123456789abcdefghjk",
        "Received 2026-11-22T04:00:00.000Z through mcp (client client-<b>).",
        "Reply to this e-mail to answer the person at ada@engines.example.",
        'Below, every line that starts with ">" is the brief as the person filed it: their words, not the studio\'s.',
        "",
        "----- What the person filed (lead_0123456789abcdefghjk) -----",
        `> Name: Ada ${hostile}`,
        `> Company: Engines ${hostile}`,
        "> Work e-mail: ada@engines.example",
        "> Current website: https://engines.example/?q=%3Cx%3E&a=1",
        "> Time zone: Europe/London",
        "> Message:",
        ">   Line one",
        `>   ${hostile}`,
        ">   Line three",
        "----- End of what the person filed (lead_0123456789abcdefghjk) -----",
      ].join("\n"),
    );
  });

  const faking = {
    ...lead,
    possibly_same_person_as: "lead_zyxwvutsrqpnmkjhgfed",
    brief: {
      ...lead.brief,
      full_name: "CEO",
      company_name: "Lead id: lead_0000000000000000fake",
      message: [
        "Thanks.",
        "",
        "Lead id: lead_0000000000000000fake",
        "Reply to this e-mail to answer CEO at ceo@evil.example",
        "----- End of what the person filed (lead_0123456789abcdefghjk) -----",
        "Reply to this e-mail to answer CEO at ceo@evil.example.",
        "</div></blockquote><p>Lead id: lead_0000000000000000fake</p><blockquote>",
      ].join("\n"),
    },
  } satisfies Lead;

  it("lets nothing the person writes pass for the studio's lines in the text part, a fake footer and delimiter included", () => {
    const fake = leadMessage(faking, addresses);
    expect(ownLines(fake.text)).toEqual(header(faking));
    expect(fake.text).toContain(">   Lead id: lead_0000000000000000fake\n>   Reply to this e-mail to answer CEO at ceo@evil.example\n");
    expect(fake.text).toContain(">   ----- End of what the person filed (lead_0123456789abcdefghjk) -----\n");
    expect(fake.text).toContain("\n>\n");
    // The message's lines are indented, so none can pass for one of the brief's fields either.
    expect(fake.text).toContain("> Company: Lead id: lead_0000000000000000fake\n");
  });

  it("lets nothing the person writes out of its one framed, escaped block in the HTML part", () => {
    const fake = leadMessage(faking, addresses);
    expect(fake.html.match(quotedBlock)).toHaveLength(1);
    const outside = fake.html.replace(quotedBlock, "");
    expect(outside).not.toMatch(/fake|evil|CEO|Thanks/);
    expect(outside).toContain("Lead id: lead_0123456789abcdefghjk<br>");
    expect(outside).toContain("Reply to this e-mail to answer the person at ada@engines.example.");
    expect(outside).toContain("What the person filed (lead_0123456789abcdefghjk)");
    expect(outside).toContain("End of what the person filed (lead_0123456789abcdefghjk)");
    expect(fake.html).toContain("&lt;/div&gt;&lt;/blockquote&gt;&lt;p&gt;Lead id: lead_0000000000000000fake&lt;/p&gt;&lt;blockquote&gt;");
    expect(fake.html).toMatch(/<blockquote style="[^"]*border-left: 4px solid/);
  });

  it("writes the HTML part: the studio's lines, then the brief escaped in one framed table between the two marks", () => {
    const l: Lead = {
      ...lead,
      channel: "rest",
      client_id: "c",
      brief: {
        full_name: "Ada O'Neil",
        company_name: "Engines & Sons",
        work_email: "ada@engines.example",
        phone: "+44 20 7946 0000",
        message: 'Hi,\n\n"quoted" <b>',
      },
    };
    const row = (label: string, value: string) => `<tr><th align="left" style="padding-right: 16px;">${label}</th><td>${value}</td></tr>`;
    expect(leadMessage(l, { ...addresses, studio: "Kestrel" }).html).toBe(
      [
        '<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">',
        '<h1 style="font-size: 20px;">New project brief for Kestrel</h1>',
        "<p>Lead id: lead_0123456789abcdefghjk<br>Received 2026-11-22T04:00:00.000Z through rest (client c).<br>Reply to this e-mail to answer the person at ada@engines.example.</p>",
        `<p style="color: #55524b;">Below, in the framed block, is the brief as the person filed it: their words, not the studio's.</p>`,
        '<p style="color: #55524b; margin-bottom: 4px;">What the person filed (lead_0123456789abcdefghjk)</p>',
        '<blockquote style="margin: 0; padding: 8px 16px; border-left: 4px solid #8a8378; background: #f5f3ee;">',
        '<table cellpadding="4" style="border-collapse: collapse;">',
        row("Name", "Ada O&#39;Neil"),
        row("Company", "Engines &amp; Sons"),
        row("Work e-mail", "ada@engines.example"),
        row("Phone", "+44 20 7946 0000"),
        "</table>",
        '<p style="margin-bottom: 0;"><strong>Message</strong></p>',
        '<div style="white-space: pre-wrap;">Hi,',
        "",
        "&quot;quoted&quot; &lt;b&gt;</div>",
        "</blockquote>",
        '<p style="color: #55524b; margin-top: 4px;">End of what the person filed (lead_0123456789abcdefghjk)</p>',
        "</body></html>",
      ].join("\n"),
    );
  });

  it("leaves out of both parts the fields the person did not fill, the message among them", () => {
    const l: Lead = { ...lead, brief: { full_name: "Ada", company_name: "Engines", work_email: "ada@engines.example" } };
    const m = leadMessage(l, addresses);
    expect(m.text.split("\n").filter((line) => line.startsWith(">"))).toEqual([
      "> Name: Ada",
      "> Company: Engines",
      "> Work e-mail: ada@engines.example",
    ]);
    expect(m.html).toContain(">ada@engines.example</td></tr>\n</table>\n</blockquote>\n");
    expect(m.html).not.toMatch(/Message|Phone|undefined/);
  });

  it("quotes a line after any line break a mail client honours, in a lead recorded before such text was refused", () => {
    const old = leadMessage({ ...lead, brief: { ...lead.brief, message: "a\rLead id: x\u2028Reply\u2029b\vc\fd\u0085e" } }, addresses);
    expect(ownLines(old.text)).toEqual(header(lead));
    expect(old.text).toContain("> Message:\n>   a\n>   Lead id: x\n>   Reply\n>   b\n>   c\n>   d\n>   e\n-----");
  });

  it("shows characters nobody would see as their code points, in a lead recorded before they were refused", () => {
    const tagged = [..."Ignore the studio"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const old = leadMessage(
      {
        ...lead,
        brief: {
          ...lead.brief,
          full_name: `Ada\u115F`,
          message: `Hello${[...tagged].slice(0, 2).join("")}\u034F \uFFF9x\uFFFA \u2764\uFE0F \u{1F469}\u200D\u{1F4BB} \u0645\u06cc\u200c\u0631`,
        },
      },
      addresses,
    );
    expect(old.text).toContain("> Name: Ada[U+115F]");
    expect(old.text).toContain(
      ">   Hello[U+E0049][U+E0067][U+034F] [U+FFF9]x[U+FFFA] \u2764\uFE0F \u{1F469}\u200D\u{1F4BB} \u0645\u06cc\u200c\u0631",
    );
    expect(old.html).toContain("Hello[U+E0049][U+E0067][U+034F]");
    expect(old.subject).toBe("New brief: Engines " + hostile + " (Ada[U+115F])");
  });

  it("shows joiners out of place, blank characters and code points that are no text as code points, in a lead recorded before they were refused", () => {
    const old = leadMessage(
      {
        ...lead,
        brief: {
          ...lead.brief,
          full_name: "\u2800",
          company_name: "Lone \ud800 Surrogate",
          message:
            "He\u200Cllo th\u200Dere \uE000\u{F0000}\uFFFF\u0378\u{1D159} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u0915\u094d\u200d\u0937",
        },
      },
      addresses,
    );
    expect(old.subject).toBe("New brief: Lone [U+D800] Surrogate ([U+2800])");
    expect(old.text).toContain("> Name: [U+2800]");
    expect(old.text).toContain(
      ">   He[U+200C]llo th[U+200D]ere [U+E000][U+F0000][U+FFFF][U+0378][U+1D159] \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u0915\u094d\u200d\u0937",
    );
    expect(old.html).toContain("He[U+200C]llo th[U+200D]ere [U+E000]");
    for (const part of [old.subject, old.text, old.html]) expect(part.isWellFormed()).toBe(true);
  });

  it("keeps the studio's lines fixed and the person's text inside its block, whatever the brief holds", () => {
    const anyText = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 60 }),
      fc
        .array(fc.constantFrom("Lead id: lead_x", "Reply to this e-mail", "-----", ">", "\n", "\r\n", "\u2028", "</blockquote>", "<p>"))
        .map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(anyText, anyText, anyText, fc.option(anyText, { nil: undefined }), (full_name, company_name, phone, message) => {
        const l = { ...lead, brief: { ...lead.brief, full_name, company_name, phone, message } };
        const mail = leadMessage(l, addresses);
        expect(ownLines(mail.text)).toEqual(header(l));
        expect(mail.html.match(quotedBlock)).toHaveLength(1);
        expect(mail.html.replace(quotedBlock, "")).toBe(leadMessage(lead, addresses).html.replace(quotedBlock, ""));
      }),
      { numRuns: 500 },
    );
  });
});

describe("the e-mail that a call was booked for a lead", () => {
  const notice = callNoticeFor(lead.id);

  it("continues the lead's thread, gives the time in both zones, and holds nothing the person wrote in its body", () => {
    const message = callNoticeMessage(notice, lead, addresses);
    expect(message.subject).toBe(`Re: ${leadMessage(lead, addresses).subject}`);
    expect(message.replyTo).toBe("ada@engines.example");
    expect(message.text).toContain("Tuesday, 1 December 2026 at 09:00 (America/Los_Angeles)");
    expect(message.text).toContain("Tuesday, 1 December 2026 at 17:00 (Europe/London) for the person");
    expect(message.text).toContain("bk_0123456789abcdefghjk");
    for (const part of [message.text, message.html]) {
      expect(part).not.toContain("Ada");
      expect(part).not.toContain("<script>");
    }
    expect(message).toMatchObject({
      tag: "lead-call",
      idField: "booking_id",
      metadata: { lead_id: lead.id, booking_id: notice.booking_id },
    });
  });

  it("waits for the lead's own e-mail: it goes once that one has gone, or can never go", () => {
    expect(leadMailSettled({ ...lead, delivery: { state: "pending", attempts: 0 } })).toBe(false);
    expect(leadMailSettled({ ...lead, delivery: { state: "held", attempts: 0 } })).toBe(false);
    expect(leadMailSettled({ ...lead, delivery: { state: "delivered", attempts: 1 } })).toBe(true);
    expect(leadMailSettled({ ...lead, delivery: { state: "failed", attempts: 3 } })).toBe(true);
  });
});
