import { prefersAlternative } from "../accept.ts";

/**
 * How to answer a POST that carries a request: one JSON body, or an event stream (SSE). The spec asks clients to list
 * both; servers may pick either. We answer JSON (cheapest, and nothing is streamed before the result) unless the
 * client prefers text/event-stream: it names it with a higher q than application/json, or names only it.
 */
export const prefersEventStream = (accept: string | null): boolean =>
  prefersAlternative(accept, { alternative: "text/event-stream", usual: "application/json", ties: "usual" });

/** The SDK refuses requests that do not list both types (406); we have already chosen, so it gets both. */
export const sdkAccept = "application/json, text/event-stream";
