import { ConfigurationError } from "../config/env.ts";
import type { Delivery } from "./lead.ts";
import { escapeHtml, type Addresses, type MailMessage } from "./mail.ts";

/**
 * The flood guard: at most LEADS_EMAIL_DAILY_LIMIT leads a UTC day are e-mailed one by one, and no one source takes
 * more than its share of them (`emailShares`). Later ones are recorded as usual (the client sees no difference) but
 * held, and the studio gets one e-mail that day saying so.
 */
export const defaultDailyEmailLimit = 50;

/** LEADS_EMAIL_DAILY_LIMIT: a whole number; 0 holds every lead (e-mailing paused). Anything else is refused. */
export function dailyEmailLimitFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return defaultDailyEmailLimit;
  if (!/^\d+$/.test(value.trim()))
    throw new ConfigurationError(`LEADS_EMAIL_DAILY_LIMIT must be a whole number of leads a day (0 holds every lead), not "${value}"`);
  return Number(value.trim());
}

/**
 * How many of the day's e-mailed leads one source may have: an address (every grant and the contact form from it
 * together) half of them, and inside it one owner (a grant, or the contact form from that address) a tenth, each
 * rounded up. Grants cost an attacker nothing but a consent form, so the address bounds a flood; the owner's share
 * keeps one looping agent behind a hosted client's busy egress address from using up the address's half for the
 * client's other people. With the default 50: 25 an address, 5 a grant.
 */
export function emailShares(dailyLimit: number): { address: number; owner: number } {
  return { address: Math.ceil(dailyLimit / 2), owner: Math.ceil(dailyLimit / 10) };
}

/** A source's field in the day's per-source counts (`leads:emailed:<day>:sources`, `leads:held:<day>:sources`). */
export const addressField = (address: string) => `address:${address}`;
export const ownerField = (owner: string) => `owner:${owner}`;
/** A lead's two source fields. */
export const sourceFields = ({ address, owner }: { address: string; owner: string }) => ({
  address: addressField(address),
  owner: ownerField(owner),
});

/** The UTC day of a moment, as in `leads:emailed:<day>`: 2030-01-31. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Why the day's first held lead was held: its owner had had its share of the day's e-mail, or its address had, or the
 * day's limit was reached (or is 0).
 */
export type HeldReason = "owner" | "address" | "day";

/** The day's alert: owed from the first lead held that day, sent at most once. */
export interface HeldAlert {
  day: string;
  /** The limit in force when the first lead was held. */
  limit: number;
  created_at: string;
  delivery: Delivery;
  /** Absent in an alert owed before sources were shared: the day's limit. */
  reason?: HeldReason;
  /** The source of the first held lead, when it was held for its own share: its address, and (`owner`) its owner. */
  address?: string;
  owner?: string;
}

/** How many leads wait in `leads:held`: those received on the alert's day, all of them, and the day's from its source. */
export interface HeldCounts {
  today: number;
  all: number;
  /** Of the alert's day, still held, from the source it names (its owner or its address). */
  fromSource?: number;
}

export const heldAlertTag = "leads-held";

const formOwner = /^form:/;

/** The source the alert names, in its words: whose leads are held, the same in short, and how to refer back to it. */
function sourceOf(alert: HeldAlert): { whose: string; short: string; that: string } | undefined {
  const { reason, address, owner } = alert;
  if (reason === "owner" && address && owner)
    return formOwner.test(owner)
      ? {
          whose: `Leads sent through the contact form from the address ${address}`,
          short: `the contact form at ${address}`,
          that: "the contact form at that address",
        }
      : { whose: `Leads filed with the grant ${owner} from the address ${address}`, short: `${owner} at ${address}`, that: "that grant" };
  if (reason === "address" && address) return { whose: `Leads filed from the address ${address}`, short: address, that: "that address" };
  return undefined;
}

export function heldAlertMessage(alert: HeldAlert, held: HeldCounts, { from, to, studio }: Addresses): MailMessage {
  const shares = emailShares(alert.limit);
  const source = sourceOf(alert);
  const share =
    alert.reason === "owner"
      ? `one grant, or the contact form from one address, may have at most ${shares.owner} of the ${alert.limit} leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (a tenth), and it has had them`
      : `one address, every grant and the contact form from it together, may have at most ${shares.address} of the ${alert.limit} leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (half), and it has had them`;
  const why = source
    ? [
        `${source.whose} are being held: ${share}.`,
        `Leads from anyone else are still e-mailed as they arrive, while the day's ${alert.limit} last.`,
      ]
    : alert.limit === 0
      ? ["LEADS_EMAIL_DAILY_LIMIT is 0, so every lead is held instead of e-mailed."]
      : [`More briefs arrived on ${alert.day} (UTC) than LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (${alert.limit} a day).`];
  const paragraphs = [
    ...why,
    "Every brief is still recorded and every client got its usual answer; held leads wait here instead of being e-mailed.",
    [
      ...(source ? [`Held from ${source.that} on ${alert.day} so far: ${held.fromSource ?? 0}.`] : []),
      `Held from ${alert.day} so far: ${held.today}. Held in all, waiting for release: ${held.all}.`,
    ].join(" "),
    `npm run leads -- held shows the address and the grant (or the contact form) each held lead came from, including any held later on ${alert.day}, which get no e-mail of their own.`,
  ];
  const commands = [
    ["See them", "npm run leads -- held"],
    ["E-mail one", "npm run leads -- release <lead id>"],
    ["E-mail all of them", "npm run leads -- release --all"],
  ];
  const after = `This is the only such e-mail for ${alert.day}: the counts above keep growing after it. From the next UTC day, leads are e-mailed again up to the limit and each source's share.`;
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
    subject: `Leads held on ${alert.day} (UTC): ${held.today} so far${source ? `, first from ${source.short}` : ""}`,
    text,
    html,
    tag: heldAlertTag,
    metadata: { alert_id: `${heldAlertTag}-${alert.day}` },
    idField: "alert_id",
  };
}
