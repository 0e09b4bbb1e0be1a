import type { Delivery, Lead } from "./lead.ts";
import { escapeHtml, leadMessage, type Addresses, type MailMessage } from "./mail.ts";

/**
 * The e-mail owed when an intro call is booked for a lead: it follows the lead's own e-mail, in its thread (the same
 * subject, "Re:"), so the studio reads the brief and the call together. Cal.com tells the studio of the booking itself;
 * this says which brief it is about. Owed like a lead's e-mail (`leads:due`, at most once), and sent only once the lead's
 * own has gone (or can never go).
 */
export interface CallNotice {
  booking_id: string;
  lead_id: string;
  created_at: string;
  /** UTC, RFC 3339. */
  start: string;
  end: string;
  /** The person's time zone, and the studio's: the e-mail gives the time in both. */
  time_zone: string;
  studio_time_zone: string;
  /** When the call was cancelled, if that happened before the notice went. */
  cancelled_at?: string;
  delivery: Delivery;
}

export const callNoticeTag = "lead-call";

const spoken = (at: string, zone: string) =>
  `${new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(at))} (${zone})`;

/** Whether the lead's own e-mail is out of the way: sent, or never to be sent. Until then the notice waits. */
export const leadMailSettled = (lead: Lead | null) => !lead || lead.delivery.state === "delivered" || lead.delivery.state === "failed";

export function callNoticeMessage(notice: CallNotice, lead: Lead | null, addresses: Addresses): MailMessage {
  const about = lead ? leadMessage(lead, addresses) : undefined;
  const when = spoken(notice.start, notice.studio_time_zone);
  const theirs = notice.time_zone === notice.studio_time_zone ? "" : ` (${spoken(notice.start, notice.time_zone)} for the person)`;
  const cancelled = notice.cancelled_at ? spoken(notice.cancelled_at, notice.studio_time_zone) : undefined;
  const lines = [
    `Intro call ${cancelled ? "booked and cancelled" : "booked"} for lead ${notice.lead_id}`,
    `The agent that filed the brief booked the intro call for ${when}${theirs}, booking ${notice.booking_id}.`,
    cancelled
      ? `It cancelled it on ${cancelled}: there is no call. Cal.com has told the studio of both.`
      : `Cal.com has the booking and sent the invitation; it tells the studio as usual, and of any cancellation.`,
    // Nothing the person wrote is in the body: only the studio's own words, as in the lead e-mail's header.
    `The brief is in the e-mail about lead ${notice.lead_id}, whose thread this continues.`,
  ];
  return {
    from: addresses.from,
    to: addresses.to,
    ...(about?.replyTo ? { replyTo: about.replyTo } : {}),
    subject: `Re: ${about?.subject ?? `Lead ${notice.lead_id}`}`.slice(0, 200),
    text: lines.join("\n"),
    html: [
      `<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">`,
      `<h1 style="font-size: 20px;">${escapeHtml(lines[0]!)}</h1>`,
      ...lines.slice(1).map((line) => `<p>${escapeHtml(line)}</p>`),
      `</body></html>`,
    ].join("\n"),
    tag: callNoticeTag,
    metadata: { lead_id: notice.lead_id, booking_id: notice.booking_id },
    idField: "booking_id",
  };
}
