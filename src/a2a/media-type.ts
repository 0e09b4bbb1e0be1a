/** A2A 1.0.1's own media type; `application/json` is accepted and answered too. */
export const a2aMediaType = "application/a2a+json";

/**
 * The Content-Type of a JSON-RPC answer: application/a2a+json when the client's Accept names it, else
 * application/json (what every 0.3 client and the SDK's JSON-RPC client ask for).
 */
export function jsonRpcResponseType(accept: string | null | undefined): string {
  const named = (accept ?? "").split(",").map((range) => range.split(";")[0]!.trim().toLowerCase());
  return named.includes(a2aMediaType) ? a2aMediaType : "application/json";
}
