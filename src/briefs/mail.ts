import type { Lead } from "./lead.ts";
import type { Brief } from "./schema.ts";

/** An e-mail to the studio (a lead, or the day's held-leads alert) as its inbox receives it. */
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

/** The lead e-mail. Every value from the brief is escaped for its context. */
export function leadMessage(lead: Lead, { from, to, studio }: Addresses): MailMessage {
  const b = lead.brief;
  const rows = (Object.keys(labels) as (keyof Brief)[])
    .filter((k) => k !== "message" && b[k] !== undefined)
    .map((k) => [labels[k], String(b[k])] as const);
  const received = `Received ${lead.received_at} through ${lead.channel} (client ${lead.client_id}).`;
  const related = lead.possibly_same_person_as
    ? `Possibly the same person as ${lead.possibly_same_person_as} (same work e-mail and company, possibly filed by someone else).`
    : undefined;
  const reply = `Reply to this e-mail to answer ${b.full_name} at ${b.work_email}.`;

  const text = [
    `New project brief for ${studio}`,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...(b.message ? ["", "Message:", b.message] : []),
    "",
    received,
    `Lead id: ${lead.id}`,
    ...(related ? [related] : []),
    reply,
  ].join("\n");

  const html = [
    `<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">`,
    `<h1 style="font-size: 20px;">New project brief for ${escapeHtml(studio)}</h1>`,
    `<table cellpadding="4" style="border-collapse: collapse;">`,
    ...rows.map(
      ([label, value]) => `<tr><th align="left" style="padding-right: 16px;">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    `</table>`,
    ...(b.message ? [`<h2 style="font-size: 16px;">Message</h2>`, `<p style="white-space: pre-wrap;">${escapeHtml(b.message)}</p>`] : []),
    `<p style="color: #55524b;">${escapeHtml(received)}<br>Lead id: ${escapeHtml(lead.id)}${related ? `<br>${escapeHtml(related)}` : ""}<br>${escapeHtml(reply)}</p>`,
    `</body></html>`,
  ].join("\n");

  return {
    from,
    to,
    replyTo: headerSafe(b.work_email),
    subject: headerSafe(`New brief: ${b.company_name} (${b.full_name})`).slice(0, 200),
    text,
    html,
    tag: leadTag,
    metadata: { lead_id: lead.id, channel: lead.channel },
    idField: "lead_id",
  };
}
