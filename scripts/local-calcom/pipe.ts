import { isTimeZone } from "../../src/booking/zoned-time.ts";

/**
 * Cal.com's input pipes, as far as the stand-in needs them: class-validator with `whitelist` and
 * `forbidNonWhitelisted`, and the one-line message their `formatErrors` builds:
 * `<property> property is wrong,<constraint messages> <children>`, joined with ", ".
 */

/** A constraint's message when `value` breaks it; `object` is the whole input (for class-level rules). */
export type Check = (value: unknown, object: Record<string, unknown>) => string | undefined;

export interface Property {
  checks?: Check[];
  /** IsOptional: null and undefined skip every check. */
  optional?: boolean;
  /** ValidateNested: the value's own properties, reported as children. */
  nested?: Shape;
  /** A class-level rule: its checks see the whole input, and its name is no property. */
  rule?: boolean;
}

/** The properties and rules of an input class, in the order class-validator reports them. */
export type Shape = [name: string, property: Property][];

export interface Failure {
  property: string;
  constraints: string[];
  children: Failure[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

export function validate(input: Record<string, unknown>, shape: Shape): Failure[] {
  const known = new Set(shape.filter(([, p]) => !p.rule).map(([name]) => name));
  // Non-whitelisted properties come first, as class-validator strips them before it validates.
  const failures: Failure[] = Object.keys(input)
    .filter((key) => !known.has(key))
    .map((key) => ({ property: key, constraints: [`property ${key} should not exist`], children: [] }));
  for (const [name, property] of shape) {
    const value = property.rule ? input : input[name];
    if (property.optional && (value === undefined || value === null)) continue;
    const constraints = (property.checks ?? []).map((check) => check(value, input)).filter((m): m is string => m !== undefined);
    let children: Failure[] = [];
    if (property.nested && isRecord(value)) children = validate(value, property.nested);
    else if (property.nested && value !== undefined) constraints.push(`nested property ${name} must be either object or array`);
    if (constraints.length > 0 || children.length > 0) failures.push({ property: name, constraints, children });
  }
  return failures;
}

export const pipeMessage = (failures: Failure[]): string =>
  failures.map((f) => `${f.property} property is wrong,${f.constraints.join(", ")} ${pipeMessage(f.children)}`).join(", ");

export const must =
  (holds: (value: unknown) => boolean, message: string): Check =>
  (value) =>
    holds(value) ? undefined : message;

export const isString = (name: string) => must((v) => typeof v === "string", `${name} must be a string`);
export const isInt = (name: string) => must((v) => Number.isInteger(v), `${name} must be an integer number`);
export const isObject = (name: string) => must(isRecord, `${name} must be an object`);
export const isIsoDate = (name: string) => must((v) => parseIso(v) !== undefined, `${name} must be a valid ISO 8601 date string`);
export const isZone = (name: string) => must((v) => typeof v === "string" && isTimeZone(v), `${name} must be a valid IANA time-zone`);

const isoPattern = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The instant of an ISO 8601 calendar date or date-time, as luxon reads it in UTC (a date alone is midnight UTC; a time
 * without an offset is UTC), or undefined for anything else. Week and ordinal dates, which validator.js also accepts,
 * are not read.
 */
export function parseIso(text: unknown): { instant: number; dateOnly: boolean } | undefined {
  const match = typeof text === "string" ? isoPattern.exec(text) : null;
  if (!match) return undefined;
  const [, date, hour = "00", minute = "00", second = "00", fraction = "", offset = "Z"] = match;
  if (new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const zone = offset.toUpperCase() === "Z" ? "Z" : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  const instant = Date.parse(`${date}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone}`);
  return Number.isNaN(instant) ? undefined : { instant, dateOnly: match[2] === undefined };
}
