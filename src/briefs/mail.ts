import type { Lead } from "./lead.ts";
import type { Brief } from "./schema.ts";
import { showInvisible } from "./visible-text.ts";

/** An e-mail to the studio (a lead, or one of the day's held-leads alerts) as its inbox receives it. */
export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  tag: string;
  metadata: Record<string, string>;
  /**
   * The metadata entry that names this message and no other (`lead_id` for a lead): before a second attempt, Postmark
   * is searched for a message with this tag and this entry; the outbox names its files after the entry's value.
   */
  idField: string;
}

const labels: Record<keyof Brief, string> = {
  full_name: "Name",
  company_name: "Company",
  work_email: "Work e-mail",
  phone: "Phone",
  project_type: "Project type",
  site_size: "Site size",
  budget_range: "Budget (USD)",
  timeline: "Timeline",
  launch_date: "Launch date",
  current_website: "Current website",
  page_count: "Pages",
  message: "Message",
  time_zone: "Time zone",
};

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A header value can never carry a line break or a control character, whatever reached it. */
const headerSafe = (s: string) => s.replace(/[\u0000-\u001F\u007F\u2028\u2029]+/g, " ").trim();

export const leadTag = "lead-brief";

export interface Addresses {
  from: string;
  to: string;
  studio: string;
}

/**
 * The person's text as lines of the text part, each with `>` and a space before it (and `indent`), an empty one as `>`
 * alone. Whatever a mail client takes for a line break starts a new quoted line.
 */
const quoted = (text: string, indent = "") =>
  text.split(/\r\n?|[\n\v\f\u0085\u2028\u2029]/).map((line) => (line ? `> ${indent}${line}` : ">"));

/**
 * The lead e-mail. The studio's own lines (what this is, the lead id, where it came from, how to answer) come first, in
 * a fixed header that holds nothing the person wrote but their validated work e-mail. Everything the person filed comes
 * after, in one delimited block: in the text part, every line of it starts with ">" (the message's lines also
 * indented) between two marks naming the lead id, which the person could not know when writing; in the HTML part,
 * escaped, inside one framed blockquote between the same marks. So nothing the person writes, such as a line
 * "Lead id: ..." or "Reply to this e-mail ...", can pass for the studio's lines. Characters nobody would see are shown
 * as their code points (a lead recorded before they were refused).
 */
export function leadMessage(lead: Lead, { from, to, studio }: Addresses): MailMessage {
  const b = lead.brief;
  const rows = (Object.keys(labels) as (keyof Brief)[])
    .filter((k) => k !== "message" && b[k] !== undefined)
    .map((k) => [labels[k], showInvisible(String(b[k]))] as const);
  const message = b.message === undefined ? undefined : showInvisible(b.message);
  const title = `New project brief for ${studio}`;
  const header = [
    `Lead id: ${lead.id}`,
    `Received ${lead.received_at} through ${lead.channel} (client ${lead.client_id}).`,
    ...(lead.possibly_same_person_as
      ? [`Possibly the same person as ${lead.possibly_same_person_as} (same work e-mail and company, possibly filed by someone else).`]
      : []),
    `Reply to this e-mail to answer the person at ${headerSafe(b.work_email)}.`,
  ];
  const opening = `What the person filed (${lead.id})`;
  const closing = `End of what the person filed (${lead.id})`;

  const text = [
    title,
    ...header,
    `Below, every line that starts with ">" is the brief as the person filed it: their words, not the studio's.`,
    "",
    `----- ${opening} -----`,
    ...rows.flatMap(([label, value]) => quoted(`${label}: ${value}`)),
    ...(message === undefined ? [] : ["> Message:", ...quoted(message, "  ")]),
    `----- ${closing} -----`,
  ].join("\n");

  const muted = "color: #55524b;";
  const html = [
    `<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">`,
    `<h1 style="font-size: 20px;">${escapeHtml(title)}</h1>`,
    `<p>${header.map(escapeHtml).join("<br>")}</p>`,
    `<p style="${muted}">Below, in the framed block, is the brief as the person filed it: their words, not the studio's.</p>`,
    `<p style="${muted} margin-bottom: 4px;">${escapeHtml(opening)}</p>`,
    `<blockquote style="margin: 0; padding: 8px 16px; border-left: 4px solid #8a8378; background: #f5f3ee;">`,
    `<table cellpadding="4" style="border-collapse: collapse;">`,
    ...rows.map(
      ([label, value]) => `<tr><th align="left" style="padding-right: 16px;">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    `</table>`,
    ...(message === undefined
      ? []
      : [`<p style="margin-bottom: 0;"><strong>Message</strong></p>`, `<div style="white-space: pre-wrap;">${escapeHtml(message)}</div>`]),
    `</blockquote>`,
    `<p style="${muted} margin-top: 4px;">${escapeHtml(closing)}</p>`,
    `</body></html>`,
  ].join("\n");

  return {
    from,
    to,
    replyTo: headerSafe(b.work_email),
    subject: headerSafe(showInvisible(`New brief: ${b.company_name} (${b.full_name})`)).slice(0, 200),
    text,
    html,
    tag: leadTag,
    metadata: { lead_id: lead.id, channel: lead.channel },
    idField: "lead_id",
  };
}
