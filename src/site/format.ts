import type { Result } from "../schemas/case-study.ts";

const number = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** Units written without a space: 21.5%, or with one: 1.3 s, 14 KB. */
export const formatValue = (n: number, unit: string) => (unit === "%" ? `${number(n)}%` : `${number(n)} ${unit}`);

/**
 * "80% lower", "34% higher"; past 90% lower or 200% higher a ratio reads better ("221× lower", "3.5× higher");
 * "up from 0" or "down to 0" when there is nothing to divide by.
 */
export function describeChange(r: Pick<Result, "before" | "after">): string {
  if (r.before === 0) return "up from 0";
  if (r.after === 0) return "down to 0";
  const percent = Math.round((Math.abs(r.after - r.before) / r.before) * 100);
  const ratio = (a: number, b: number) => number(a / b >= 10 ? Math.round(a / b) : Math.round((a / b) * 10) / 10);
  if (r.after > r.before) return percent >= 200 ? `${ratio(r.after, r.before)}× higher` : `${percent}% higher`;
  return percent >= 90 ? `${ratio(r.before, r.after)}× lower` : `${percent}% lower`;
}

export const range = (r: { min: number; max: number }, unit: string) =>
  r.min === r.max ? `${r.min} ${unit}` : `${r.min}–${r.max} ${unit}`;

/** "a free 30-minute intro call": one phrase for every page and twin, so no template can drop its spaces. */
export const freeIntroCall = (minutes: number) => `a free ${minutes}-minute intro call`;

/** The note under the table of site sizes, on /offers and in its twin. */
export const sizesPricingNote = (minutes: number) => `Every site is priced on ${freeIntroCall(minutes)}.`;

export const usd = (amount: number) => `$${amount.toLocaleString("en-US")}`;

export const longDate = (d: Date) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** Groups items by a key, keeping first-seen order of the groups. */
export function groupBy<T>(items: T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups];
}
