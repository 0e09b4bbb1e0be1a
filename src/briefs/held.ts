import type { Delivery } from "./lead.ts";
import { escapeHtml, type Addresses, type MailMessage } from "./mail.ts";

/**
 * The flood guard: at most LEADS_EMAIL_DAILY_LIMIT leads a UTC day are e-mailed one by one, and no one source takes
 * more than its share of them (`emailShares`). Later ones are recorded as usual (the client sees no difference) but
 * held, and the studio gets an e-mail the first time each kind of hold (`HeldReason`) starts that day: at most three.
 */
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
 * Why a lead was held, and so the kind of hold an alert is about, from the narrowest: its owner had had its share of the
 * day's e-mail, or its address had (every owner from it held), or the day's limit was reached or is 0 (every source
 * held). Each kind alerts the studio once a UTC day, the first time it holds a lead.
 */
export type HeldReason = "owner" | "address" | "day";
export const heldReasons = ["day", "address", "owner"] as const satisfies readonly HeldReason[];

/** One of the day's alerts: owed from the first lead held that day for its reason, sent at most once. */
export interface HeldAlert {
  day: string;
  /** The limit in force when the lead was held. */
  limit: number;
  created_at: string;
  delivery: Delivery;
  /** The kind of hold. Absent in an alert owed before sources were shared: the day's limit. */
  reason?: HeldReason;
  /** The source of the lead held for its own share: its address, and (`owner`) its owner. */
  address?: string;
  owner?: string;
  /** Its name in Postmark's metadata (`heldAlertId`). Absent in an alert owed when a day had one alert: `leads-held-<day>`. */
  id?: string;
}

/** How many leads wait in `leads:held`: those received on the alert's day, all of them, and the day's from its source. */
export interface HeldCounts {
  today: number;
  all: number;
  /** Of the alert's day, still held, from the source it names (its owner or its address). */
  fromSource?: number;
  /** For the day's limit: the addresses with the most of the day's e-mailed leads, most first. */
  busiest?: { address: string; emailed: number }[];
}

export const heldAlertTag = "leads-held";
/** The alert's name in its e-mail's metadata, which the never-twice search looks for: one per day and kind. */
export const heldAlertId = (day: string, reason: HeldReason) => `${heldAlertTag}-${day}-${reason}`;

const formOwner = /^form:/;

/** Whose leads an alert says are held, in its words: in full, in short for the subject, and how to refer back to them. */
interface Source {
  whose: string;
  short: string;
  that: string;
}

function sourceOf(alert: HeldAlert): Source | undefined {
  const { reason, address, owner } = alert;
  if (reason === "owner" && address && owner)
    return formOwner.test(owner)
      ? {
          whose: `Leads sent through the contact form from the address ${address}`,
          short: `the contact form at ${address}`,
          that: "the contact form at that address",
        }
      : {
          whose: `Leads filed with the grant ${owner} from the address ${address}`,
          short: `the grant ${owner} at ${address}`,
          that: "that grant",
        };
  if (reason === "address" && address)
    return { whose: `Leads filed from the address ${address}`, short: `the address ${address}`, that: "that address" };
  return undefined;
}

const nextDay = (day: string) => utcDay(Date.parse(`${day}T00:00:00Z`) + 86_400_000);

/**
 * What an alert says about its kind of hold: the kind in a few words, its subject's headline, and why leads are held with
 * who is still e-mailed (for the day's limit: nobody, and the addresses that used most of it).
 */
function holdWords(alert: HeldAlert, source: Source | undefined, held: HeldCounts): { kind: string; headline: string; why: string[] } {
  const { day, limit } = alert;
  const shares = emailShares(limit);
  if (source && alert.reason === "owner") {
    const others = formOwner.test(alert.owner!)
      ? "Leads from every grant, and from the contact form at other addresses,"
      : "Leads from every other grant, and from the contact form,";
    return {
      kind: "a grant or the contact form past its share",
      headline: `${source.short} past its share`,
      why: [
        `${source.whose} are being held: one grant, or the contact form from one address, may have at most ${shares.owner} of the ${limit} leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (a tenth), and it has had them.`,
        `${others} are still e-mailed as they arrive, each up to its own share of ${shares.owner}, until their address has had its ${shares.address} or the day its ${limit}. If a whole address's leads, or every lead, are held on ${day}, a separate e-mail says so.`,
      ],
    };
  }
  if (source && alert.reason === "address")
    return {
      kind: "an address past its share",
      headline: `${source.short} past its share`,
      why: [
        `${source.whose} are being held: one address, every grant and the contact form from it together, may have at most ${shares.address} of the ${limit} leads a day that LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (half), and it has had them.`,
        `Leads from every other address are still e-mailed as they arrive, each source up to its own share, until the day has had its ${limit}. If every lead is held on ${day}, a separate e-mail says so.`,
      ],
    };
  if (limit === 0)
    return {
      kind: "the day's limit",
      headline: "LEADS_EMAIL_DAILY_LIMIT is 0, every lead held",
      why: [
        "LEADS_EMAIL_DAILY_LIMIT is 0, so every lead is held instead of e-mailed: no lead from anyone is e-mailed until you release it, or until the limit is raised.",
      ],
    };
  const busiest = (held.busiest ?? []).map(({ address, emailed }) => `${address} (${emailed})`);
  return {
    kind: "the day's limit",
    headline: "the day's limit reached, every lead held",
    why: [
      `More briefs arrived on ${day} (UTC) than LEADS_EMAIL_DAILY_LIMIT lets through by e-mail (${limit} a day), so every lead is now held, from every address, grant and the contact form alike: none is e-mailed until you release it, or until the next UTC day (${nextDay(day)}) begins.`,
      ...(busiest.length > 0 ? [`The addresses whose leads were e-mailed most on ${day}: ${busiest.join(", ")}.`] : []),
    ],
  };
}

/**
 * The e-mail of one of the day's alerts. It names the source held (for the day's limit, the addresses that used most of
 * it), says who is still e-mailed, and carries nothing any brief's author wrote: only addresses, grant ids and counts.
 */
export function heldAlertMessage(alert: HeldAlert, held: HeldCounts, { from, to, studio }: Addresses): MailMessage {
  const { day } = alert;
  const source = sourceOf(alert);
  const { kind, headline, why } = holdWords(alert, source, held);

  const paragraphs = [
    ...why,
    "Every brief is still recorded and every client got its usual answer; held leads wait here instead of being e-mailed.",
    [
      ...(source ? [`Held from ${source.that} on ${day} so far: ${held.fromSource ?? 0}.`] : []),
      `Held from ${day} so far: ${held.today}. Held in all, waiting for release: ${held.all}.`,
    ].join(" "),
    `npm run leads -- held shows the address and the grant (or the contact form) each held lead came from, including any held later on ${day}.`,
  ];
  const commands = [
    ["See them", "npm run leads -- held"],
    ["E-mail one", "npm run leads -- release <lead id>"],
    ["E-mail all of them", "npm run leads -- release --all"],
  ];
  const after = [
    `At most three of these e-mails come a day, one for each kind of hold: a grant or the contact form past its share, an address past its share, and the day's limit.`,
    `This is ${day}'s about ${kind}: any source held the same way later that day gets no e-mail of its own, and the counts above keep growing after it.`,
    "From the next UTC day, leads are e-mailed again up to the limit and each source's share.",
  ].join(" ");
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
    subject: `Leads held on ${day} (UTC), ${held.today} so far: ${headline}`,
    text,
    html,
    tag: heldAlertTag,
    metadata: { alert_id: alert.id ?? `${heldAlertTag}-${day}` },
    idField: "alert_id",
  };
}
