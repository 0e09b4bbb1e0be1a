/**
 * Wall-clock times in IANA time zones with the platform's own tz database (Intl), for free times and bookings: which
 * zone names exist, an instant written with its zone's offset, and a zone's wall time as an instant. Intl is enough
 * for these three; a date library would add its weight to every function bundle that books.
 */

/** The runtime's own zone names by their lower case: the spelling answers use for a name written in another case. */
let spellings: Map<string, string> | undefined;
const spellingOf = (zone: string) => {
  spellings ??= new Map(["UTC", ...Intl.supportedValuesOf("timeZone")].map((name) => [name.toLowerCase(), name]));
  return spellings.get(zone.toLowerCase());
};

/**
 * An IANA region time zone ("Europe/Paris", in any case) or UTC, as answers write it; undefined for anything else,
 * abbreviations included ("EST", which Intl would read as a region). A name in the runtime's list is spelled as the list
 * spells it (`EUROPE/BERLIN` is Europe/Berlin, `utc` is UTC); any other name Intl knows (a newer one such as
 * Europe/Kyiv, whose ICU name is still Europe/Kiev, or a link such as US/Pacific) is kept as sent, never swapped for an
 * older name.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  if (zone.length === 0 || zone.length > 64 || !(zone.includes("/") || zone.toUpperCase() === "UTC")) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    return undefined;
  }
  return spellingOf(zone) ?? zone;
}

export const isTimeZone = (zone: string): boolean => canonicalTimeZone(zone) !== undefined;

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function formatFor(zone: string): Intl.DateTimeFormat {
  let format = partsFormat.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
    });
    partsFormat.set(zone, format);
  }
  return format;
}

export interface WallTime {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM:SS */
  time: string;
  /** "monday" … "sunday" */
  weekday: string;
  /** Minutes east of UTC. */
  offsetMinutes: number;
}

/** What a clock in `zone` shows at `instant`. */
export function wallTimeAt(instant: Date, zone: string): WallTime {
  const parts = Object.fromEntries(
    formatFor(zone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  const asUtc = Date.parse(`${date}T${time}Z`);
  const offsetMinutes = Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  return { date, time, weekday: parts.weekday!.toLowerCase(), offsetMinutes };
}

const pad = (n: number) => String(n).padStart(2, "0");
const offsetText = (minutes: number) =>
  `${minutes < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

/** RFC 3339 with the zone's offset at that instant, to the second: "2026-12-01T09:00:00-08:00". */
export function formatInZone(instant: Date, zone: string): string {
  const { date, time, offsetMinutes } = wallTimeAt(instant, zone);
  return `${date}T${time}${offsetText(offsetMinutes)}`;
}

/**
 * The instant a clock in `zone` shows `date` `time` (HH:MM or HH:MM:SS); in an overlap (a fall-back night), the earlier
 * of the two. A time in a DST gap shows on no clock: the instant given then reads otherwise, as `wallTimeAt` tells.
 */
export function instantOfWallTime(date: string, time: string, zone: string): Date {
  const wall = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}Z`);
  // The offset is read at a guess, then at the instant that guess gives: two reads settle every transition.
  let instant = wall - wallTimeAt(new Date(wall), zone).offsetMinutes * 60_000;
  instant = wall - wallTimeAt(new Date(instant), zone).offsetMinutes * 60_000;
  return new Date(instant);
}

/** The calendar day after `date` (YYYY-MM-DD). */
export const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
