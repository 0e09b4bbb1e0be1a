import { prefersAlternative } from "../accept.ts";

/** A2A 1.0.1's own media type; `application/json` is accepted and answered too. */
export const a2aMediaType = "application/a2a+json";

/** The request bodies both bindings read. */
export const a2aJsonTypes = ["application/json", a2aMediaType];

/**
 * The Content-Type of a JSON-RPC answer: application/a2a+json when the client's Accept names it at least as high as
 * application/json, else application/json (what every 0.3 client and the SDK's JSON-RPC client ask for).
 */
export const jsonRpcResponseType = (accept: string | null | undefined): string =>
  prefersAlternative(accept, { alternative: a2aMediaType, usual: "application/json", ties: "alternative" })
    ? a2aMediaType
    : "application/json";
