import { describe, expect, it } from "vitest";
import type { Lead } from "../../src/briefs/lead.ts";
import { leadMessage } from "../../src/briefs/mail.ts";

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

describe("the lead e-mail", () => {
  const m = leadMessage(lead, { from: "Website <website@studio.example>", to: "leads@studio.example", studio: "Kestrel <Studio>" });

  it("escapes every value in the HTML body", () => {
    expect(m.html).not.toMatch(/<script|<img|<b>/);
    expect(m.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;");
    expect(m.html).toContain("Kestrel &lt;Studio&gt;");
  });

  it("keeps header values on one line, and never puts the client's text in From", () => {
    for (const header of [m.subject, m.replyTo, m.from, m.to]) expect(header).not.toMatch(/[\r\n]/);
    expect(m.from).toBe("Website <website@studio.example>");
    expect(m.replyTo).toBe("ada@engines.example");
    const forged = leadMessage(
      { ...lead, brief: { ...lead.brief, company_name: "X\r\nBcc: victim@example.com" } },
      { from: "a@b", to: "c@d", studio: "S" },
    );
    expect(forged.subject).toBe("New brief: X Bcc: victim@example.com (Ada " + hostile + ")");
  });

  it("carries the lead id in metadata and the text body, with a tag", () => {
    expect(m.metadata).toEqual({ lead_id: lead.id, channel: "mcp" });
    expect(m.tag).toBe("lead-brief");
    expect(m.text).toContain(`Lead id: ${lead.id}`);
    expect(m.text).toContain("Line one\n" + hostile + "\nLine three");
  });
});
