/**
 * How long a fetched document stays fresh in our cache, from its `Cache-Control` and `Age` (RFC 9111 §4.2.1, §4.2.3,
 * §5.1, §5.2.2), kept within bounds of our own. We are a shared cache: `s-maxage` wins over `max-age`. A document that
 * asks not to be kept (`no-store`, `no-cache`, `private`, in any form) or that is stale already gets the floor, never
 * "fetch on every request". A freshness directive we cannot trust (not a whole number of seconds, or given twice) makes
 * the document stale (RFC 9111 §4.2.1 allows either that or the first value): the floor again. Anything past the ceiling
 * gets the ceiling. Other directives (`must-revalidate`, `stale-if-error`, `immutable`, ...) do not change freshness.
 */
export interface FreshnessBounds {
  /** The least a document is kept, whatever it says. */
  floorSeconds: number;
  /** The most a document is kept, whatever it says. */
  ceilingSeconds: number;
  /** What a document that says nothing about its freshness gets. */
  defaultSeconds: number;
}

/** The directives of a Cache-Control field value, by lower-cased name, each with every argument it was given. */
export function cacheDirectives(field: string): Map<string, (string | undefined)[]> {
  const directives = new Map<string, (string | undefined)[]>();
  for (const member of splitOutsideQuotes(field)) {
    const equals = member.indexOf("=");
    const name = (equals < 0 ? member : member.slice(0, equals)).trim().toLowerCase();
    if (name === "") continue;
    const argument = equals < 0 ? undefined : unquote(member.slice(equals + 1).trim());
    directives.set(name, [...(directives.get(name) ?? []), argument]);
  }
  return directives;
}

/** Seconds of freshness left, within the bounds. */
export function freshnessSeconds(cacheControl: string | undefined, age: string | undefined, bounds: FreshnessBounds): number {
  const directives = cacheDirectives(cacheControl ?? "");
  const within = (seconds: number) => Math.min(bounds.ceilingSeconds, Math.max(bounds.floorSeconds, seconds));
  if (["no-store", "no-cache", "private"].some((name) => directives.has(name))) return bounds.floorSeconds;
  const lifetime = directives.get("s-maxage") ?? directives.get("max-age");
  if (lifetime === undefined) return bounds.defaultSeconds;
  const seconds = lifetime.length === 1 ? deltaSeconds(lifetime[0]) : undefined;
  if (seconds === undefined) return bounds.floorSeconds;
  return within(seconds - (ageSeconds(age) ?? 0));
}

/**
 * delta-seconds (RFC 9111 §1.2.2): digits only. A value too large for a number is Infinity, which the ceiling bounds
 * (the RFC's "greatest positive integer it can conveniently represent").
 */
const deltaSeconds = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);

/** Age (RFC 9111 §5.1): the first member of a list, ignored when it is not delta-seconds. */
const ageSeconds = (field: string | undefined) => deltaSeconds(field?.split(",")[0]?.trim());

/** Splits a field value at the commas that are not inside a quoted string. */
function splitOutsideQuotes(field: string): string[] {
  const members: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < field.length; i++) {
    const char = field[i]!;
    if (quoted && char === "\\") {
      current += char + (field[++i] ?? "");
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === "," && !quoted) {
      members.push(current);
      current = "";
    } else current += char;
  }
  members.push(current);
  return members;
}

/** An argument in token or quoted-string form (recipients accept both, RFC 9111 §5.2); an unclosed quote is kept as is. */
function unquote(argument: string): string {
  if (argument.length < 2 || !argument.startsWith('"') || !argument.endsWith('"')) return argument;
  return argument.slice(1, -1).replace(/\\(.)/g, "$1");
}
