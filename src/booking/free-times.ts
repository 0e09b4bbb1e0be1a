import { freeStarts, type CalCom } from "./cal-com.ts";
import { freeTimesLimits, type FreeTimesQuery } from "./schema.ts";
import type { BookingStore } from "./store.ts";
import { formatInZone, instantOfWallTime, nextDate, wallTimeAt } from "./zoned-time.ts";
import type { FieldError } from "../briefs/validate.ts";

export interface FreeTimes {
  time_zone: string;
  /** First and last day listed, YYYY-MM-DD in time_zone. */
  from: string;
  to: string;
  duration_minutes: number;
  /** Each free start and its end, RFC 3339 with time_zone's offset, in order. */
  times: { start: string; end: string }[];
}

interface FreeTimesDeps {
  cal: CalCom;
  store: BookingStore;
  lengthMinutes: number;
  studioTimeZone: string;
  now?: () => number;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The days a query asks for, its defaults filled in, or what is wrong with it (each field by its name). */
export function daysOf(query: FreeTimesQuery, deps: Pick<FreeTimesDeps, "studioTimeZone" | "now">) {
  const time_zone = query.time_zone ?? deps.studioTimeZone;
  const today = wallTimeAt(new Date((deps.now ?? Date.now)()), time_zone).date;
  const from = query.from ?? today;
  const to = query.to ?? addDays(from, freeTimesLimits.defaultSpanDays);
  const errors: FieldError[] = [];
  const wrong = (field: string, message: string) => errors.push({ field: `/${field}`, code: "invalid_value", message });
  if (from < today) wrong("from", `from must not be before today (${today} in ${time_zone})`);
  if (daysBetween(today, from) > freeTimesLimits.aheadDays) wrong("from", `from must be at most ${freeTimesLimits.aheadDays} days ahead`);
  if (to < from) wrong("to", "to must not be before from");
  else if (daysBetween(from, to) > freeTimesLimits.spanDays) wrong("to", `to must be at most ${freeTimesLimits.spanDays} days after from`);
  return errors.length > 0 ? { errors } : { time_zone, from, to };
}

/** Cal.com is asked for whole weeks of UTC days, each week the same for every query that touches it. */
const blockDays = 7;
const blockMs = blockDays * 86_400_000;

const blockKey = (from: number) => new Date(from).toISOString().slice(0, 10);

/** Forgets the kept free times around `at` (a booking made or cancelled there): the next read asks Cal.com. */
export const forgetFreeTimesAt = (at: number, deps: Pick<FreeTimesDeps, "store">) =>
  deps.store.forgetFreeStarts(blockKey(Math.floor(at / blockMs) * blockMs));

/** The starts Cal.com gives for one block of UTC days (from its first midnight), kept a minute. */
async function blockStarts(from: number, deps: FreeTimesDeps, fresh: boolean): Promise<string[]> {
  const key = blockKey(from);
  const kept = fresh ? null : await deps.store.cachedFreeStarts(key);
  if (kept) return kept;
  // Cal.com reads an end at midnight UTC as the end of that day: the last second of the block is its end.
  const starts = await freeStarts(deps.cal, { from: new Date(from), to: new Date(from + blockMs - 1000), timeZone: "UTC" });
  await deps.store.cacheFreeStarts(key, starts);
  return starts;
}

/**
 * The free times of the days asked for, from Cal.com, each with its end. Cal.com is asked for fixed weeks of UTC days
 * (aligned to the epoch), each kept a minute: whatever days, spans and time zones agents poll, they cost
 * Cal.com at most twelve calls a minute (the 81 days a query can reach). `fresh` asks Cal.com again (after a refused booking).
 */
export async function freeTimes(
  days: { time_zone: string; from: string; to: string },
  deps: FreeTimesDeps,
  { fresh = false } = {},
): Promise<FreeTimes> {
  const start = instantOfWallTime(days.from, "00:00", days.time_zone);
  const end = instantOfWallTime(nextDate(days.to), "00:00", days.time_zone);
  const blocks: number[] = [];
  for (let from = Math.floor(start.getTime() / blockMs) * blockMs; from < end.getTime(); from += blockMs) blocks.push(from);
  const starts = (await Promise.all(blocks.map((from) => blockStarts(from, deps, fresh)))).flat();
  const now = (deps.now ?? Date.now)();
  const times = starts
    .map((s) => Date.parse(s))
    .filter((at) => Number.isFinite(at) && at > now && at >= start.getTime() && at < end.getTime())
    .sort((a, b) => a - b)
    .map((at) => ({
      start: formatInZone(new Date(at), days.time_zone),
      end: formatInZone(new Date(at + deps.lengthMinutes * 60_000), days.time_zone),
    }));
  return { ...days, duration_minutes: deps.lengthMinutes, times };
}
