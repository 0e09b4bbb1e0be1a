import { parseAccept } from "hono/utils/accept";

/**
 * Content negotiation for every door that offers a second representation (RFC 9110 §12.5.1): the Markdown twins of
 * pages and the event stream of /mcp. Hono's parser reads the header (quoted parameters, whitespace, q); the rule on
 * top is ours: a door answers with its alternative only when the client names it itself, so wildcards keep the
 * default (HTML, JSON).
 */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** RFC 9110 §12.4.2: "0" to "1" with at most three decimals. A range weighted otherwise is ignored, not guessed at. */
const qvalue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

export function mediaRanges(accept: string | null | undefined): MediaRange[] {
  if (!accept) return [];
  return parseAccept(accept).flatMap(({ type: range, params, q }) => {
    const weight = params.q ?? params.Q;
    if (weight !== undefined && !qvalue.test(weight)) return [];
    const [type, subtype] = (range === "*" ? "*/*" : range).toLowerCase().split("/");
    return type && subtype ? [{ type, subtype, q }] : [];
  });
}

const split = (mediaType: string) => mediaType.toLowerCase().split("/") as [string, string];

/** The q of the range naming this media type itself; 0 when only wildcards, or nothing, cover it. */
function namedWeight(ranges: MediaRange[], mediaType: string): number {
  const [type, subtype] = split(mediaType);
  return ranges.find((r) => r.type === type && r.subtype === subtype)?.q ?? 0;
}

/** The q the header gives a media type: that of the most specific range that matches it; 0 when none does. */
function weight(ranges: MediaRange[], mediaType: string): number {
  const [type, subtype] = split(mediaType);
  const named = ranges.find((r) => r.type === type && r.subtype === subtype);
  const partial = ranges.find((r) => r.type === type && r.subtype === "*");
  return (named ?? partial ?? ranges.find((r) => r.type === "*" && r.subtype === "*"))?.q ?? 0;
}

/**
 * Whether to answer with `alternative` instead of the door's `usual` representation: only when the client names the
 * alternative with q > 0 and weighs it above the usual one, or at least as high when `ties` goes to the alternative.
 */
export function prefersAlternative(
  accept: string | null | undefined,
  { alternative, usual, ties }: { alternative: string; usual: string; ties: "alternative" | "usual" },
): boolean {
  const ranges = mediaRanges(accept);
  const wanted = namedWeight(ranges, alternative);
  const other = weight(ranges, usual);
  return wanted > 0 && (ties === "alternative" ? wanted >= other : wanted > other);
}

/**
 * A regular expression that finds `text` in any case, for platforms that match headers by regex and case-sensitively
 * (Netlify's edge `header` conditions): each letter a class of its two cases, the one syntax JavaScript, Go and Rust read
 * alike (an inline `(?i)` is not), every other character escaped. Media types are case-insensitive (RFC 9110 §8.3.1).
 */
export const inAnyCase = (text: string): string =>
  [...text]
    .map((c) => (c.toLowerCase() === c.toUpperCase() ? c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : `[${c.toUpperCase()}${c.toLowerCase()}]`))
    .join("");
