import { ConfigurationError } from "../config/env.ts";
import type { Delivery } from "./lead.ts";
import { escapeHtml, type Addresses, type MailMessage } from "./mail.ts";

/**
 * The flood guard: at most LEADS_EMAIL_DAILY_LIMIT leads a UTC day are e-mailed one by one. Later ones are recorded
 * as usual (the client sees no difference) but held, and the studio gets one e-mail that day saying so.
 */
export const defaultDailyEmailLimit = 50;

/** LEADS_EMAIL_DAILY_LIMIT: a whole number; 0 holds every lead (e-mailing paused). Anything else is refused. */
export function dailyEmailLimitFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return defaultDailyEmailLimit;
  if (!/^\d+$/.test(value.trim()))
    throw new ConfigurationError(`LEADS_EMAIL_DAILY_LIMIT must be a whole number of leads a day (0 holds every lead), not "${value}"`);
  return Number(value.trim());
}

/** The UTC day of a moment, as in `leads:emailed:<day>`: 2030-01-31. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The day's alert: owed from the first lead held that day, sent at most once. */
export interface HeldAlert {
  day: string;
  /** The limit in force when the first lead was held. */
  limit: number;
  created_at: string;
  delivery: Delivery;
}

/** How many leads wait in `leads:held`: those received on the alert's day, and all of them. */
export interface HeldCounts {
  today: number;
  all: number;
}

export const heldAlertTag = "leads-held";

export function heldAlertMessage(alert: HeldAlert, held: HeldCounts, { from, to, studio }: Addresses): MailMessage {
  const why =
    alert.limit === 0
      ? "LEADS_EMAIL_DAILY_LIMIT is 0, so every lead is held instead of e-mailed."
      : `More briefs arrived on ${alert.day} (UTC) than LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (${alert.limit} a day).`;
  const paragraphs = [
    why,
    "Every brief is still recorded and every client got its usual answer; the leads past the limit are held here, not e-mailed.",
    `Held from ${alert.day} so far: ${held.today}. Held in all, waiting for release: ${held.all}.`,
  ];
  const commands = [
    ["See them", "npm run leads"],
    ["E-mail one", "npm run leads -- release <lead id>"],
    ["E-mail all of them", "npm run leads -- release --all"],
  ];
  const after = `This is the only such e-mail for ${alert.day}: the counts above keep growing after it. From the next UTC day, leads are e-mailed again up to the limit.`;
  const text = [
    `Leads are being held for ${studio}`,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...commands.map(([what, command]) => `${`${what}:`.padEnd(20)}${command}`),
    "",
    after,
  ].join("\n");
  const html = [
    `<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1c1b19;">`,
    `<h1 style="font-size: 20px;">Leads are being held for ${escapeHtml(studio)}</h1>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<ul>${commands.map(([what, command]) => `<li>${escapeHtml(what!)}: <code>${escapeHtml(command!)}</code></li>`).join("")}</ul>`,
    `<p style="color: #55524b;">${escapeHtml(after)}</p>`,
    `</body></html>`,
  ].join("\n");
  return {
    from,
    to,
    subject: `Leads held on ${alert.day} (UTC): ${held.today} so far`,
    text,
    html,
    tag: heldAlertTag,
    metadata: { alert_id: `${heldAlertTag}-${alert.day}` },
    idField: "alert_id",
  };
}
