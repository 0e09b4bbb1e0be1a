/**
 * How to answer a POST that carries a request: one JSON body, or an event stream (SSE). The spec asks clients to list
 * both; servers may pick either. We answer JSON (cheapest, and nothing is streamed before the result) unless the
 * client prefers text/event-stream: it names it with a higher q than application/json, or names only it.
 */
export function prefersEventStream(accept: string | null): boolean {
  if (!accept) return false;
  let json = 0;
  let stream = 0;
  let jsonSpecificity = -1;
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    if (range === "text/event-stream") stream = q;
    const specificity = range === "application/json" ? 2 : range === "application/*" ? 1 : range === "*/*" ? 0 : -1;
    if (specificity > jsonSpecificity) [json, jsonSpecificity] = [q, specificity];
  }
  return stream > 0 && stream > json;
}

/** The SDK refuses requests that do not list both types (406); we have already chosen, so it gets both. */
export const sdkAccept = "application/json, text/event-stream";
