/**
 * Representation choice for pages (RFC 9110 §12.5.1): Markdown only when the client names text/markdown
 * explicitly with q > 0 and at least the q it gives text/html. Wildcards never select Markdown, so
 * browsers and generic fetchers keep getting HTML.
 */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(",").flatMap((part) => {
    const [range = "", ...params] = part.split(";").map((s) => s.trim());
    const [type, subtype] = range.toLowerCase().split("/");
    if (!type || !subtype) return [];
    const qParam = params.find((p) => /^q\s*=/i.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.split("=")[1]);
    return Number.isFinite(q) && q >= 0 && q <= 1 ? [{ type, subtype, q }] : [];
  });
}

/** The q of the most specific range that matches type/subtype; 0 when none does. */
function qualityOf(ranges: MediaRange[], type: string, subtype: string): number {
  const exact = ranges.find((r) => r.type === type && r.subtype === subtype);
  if (exact) return exact.q;
  const partial = ranges.find((r) => r.type === type && r.subtype === "*");
  if (partial) return partial.q;
  return ranges.find((r) => r.type === "*" && r.subtype === "*")?.q ?? 0;
}

export function prefersMarkdown(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const markdown = ranges.find((r) => r.type === "text" && r.subtype === "markdown");
  if (!markdown || markdown.q === 0) return false;
  return markdown.q >= qualityOf(ranges, "text", "html");
}
