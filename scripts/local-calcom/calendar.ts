import { formatInZone, instantOfWallTime, nextDate, wallTimeAt } from "../../src/booking/zoned-time.ts";

export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

export interface OfficeHours {
  time_zone: string;
  days: Weekday[];
  /** "09:00" */
  opens: string;
  /** "17:00" */
  closes: string;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The slot starts (ms since the epoch) on one date of the office's calendar: every `length` minutes from opening, each ending by closing. */
export function slotStartsOn(date: string, hours: OfficeHours, lengthMinutes: number): number[] {
  const zone = hours.time_zone;
  const weekday = wallTimeAt(instantOfWallTime(date, "12:00", zone), zone).weekday as Weekday;
  if (!hours.days.includes(weekday)) return [];
  const starts: number[] = [];
  for (let m = minutesOf(hours.opens); m + lengthMinutes <= minutesOf(hours.closes); m += lengthMinutes) {
    const instant = instantOfWallTime(date, hhmm(m), zone);
    // A wall time in a spring-forward gap shows on no clock: no slot starts then.
    if (wallTimeAt(instant, zone).time === `${hhmm(m)}:00`) starts.push(instant.getTime());
  }
  return starts;
}

/** The slot starts within [from, to], date by date in the office's zone. */
export function slotStartsBetween(from: number, to: number, hours: OfficeHours, lengthMinutes: number): number[] {
  if (from > to) return [];
  const last = wallTimeAt(new Date(to), hours.time_zone).date;
  const starts: number[] = [];
  for (let date = wallTimeAt(new Date(from), hours.time_zone).date; date <= last; date = nextDate(date))
    starts.push(...slotStartsOn(date, hours, lengthMinutes).filter((start) => start >= from && start <= to));
  return starts;
}

/**
 * An instant as luxon's `setZone(zone).toISO()` writes it, as Cal.com's slots do: with milliseconds, and "Z" for UTC
 * itself (luxon's fixed UTC zone), the offset otherwise ("+00:00" for Europe/London in winter).
 */
export function calIso(instant: number, zone: string | undefined): string {
  if (zone === undefined || /^(utc|gmt)$/i.test(zone)) return new Date(instant).toISOString();
  const text = formatInZone(new Date(instant), zone);
  return `${text.slice(0, 19)}.000${text.slice(19)}`;
}

/** The date a clock in `zone` (UTC when none) shows at `instant`. */
export const dateIn = (instant: number, zone: string | undefined) => wallTimeAt(new Date(instant), zone ?? "UTC").date;
