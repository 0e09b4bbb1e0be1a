/**
 * The problem codes of the public API (RFC 9457). This table is the only definition: the developer page,
 * the responses and the machine-readable description are generated from it.
 */
export interface ProblemDefinition {
  status: number;
  title: string;
  /** When the problem occurs. */
  condition: string;
  /** What the client should do next. */
  resolution: string;
}

export const problems = {
  not_found: {
    status: 404,
    title: "Not found",
    condition: "The path is not an API resource.",
    resolution:
      "Check the path against the resource list in the API index at /api/v1; paths are case-sensitive and have no trailing slash.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    condition: "The resource does not support the method; the Allow header lists the methods it does support.",
    resolution: "Use one of the methods in the Allow header. Reads are GET (or HEAD); the only write is POST /api/v1/briefs.",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    condition: "The request quota of the client's IP address is exhausted for the current window.",
    resolution: "Wait the number of seconds in the Retry-After header, then retry. Pace requests using the RateLimit header.",
  },
  invalid_token: {
    status: 401,
    title: "Invalid access token",
    condition: "The access token is missing, expired, or not valid here.",
    resolution: "Get a new token from /oauth/token (tokens last one hour) and send it as Authorization: Bearer <token>.",
  },
  insufficient_scope: {
    status: 403,
    title: "Insufficient scope",
    condition: "The access token lacks the scope svc:brief.",
    resolution: "Request a new token with scope=svc:brief; registration and tokens are self-serve.",
  },
  invalid_json: {
    status: 400,
    title: "Invalid JSON",
    condition: "The request body is not a JSON object.",
    resolution: "Send a JSON object with Content-Type: application/json.",
  },
  invalid_brief: {
    status: 422,
    title: "Invalid brief",
    condition: "A brief field is missing or invalid; the errors array names each one.",
    resolution: "Fix every field listed in errors and send the brief again.",
  },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    condition: "The request body is larger than 32 KB.",
    resolution: "Send a smaller brief: message is at most 5,000 characters, and other fields are short.",
  },
  invalid_idempotency_key: {
    status: 400,
    title: "Invalid Idempotency-Key",
    condition: "The Idempotency-Key header is empty, longer than 255 characters, or not printable ASCII.",
    resolution: "Send a unique printable ASCII value of at most 255 characters, such as a UUID, or leave the header out.",
  },
  idempotency_key_reused: {
    status: 422,
    title: "Idempotency-Key reused",
    condition: "The Idempotency-Key was already used in the last 24 hours with a different brief.",
    resolution: "Use a new Idempotency-Key for a different brief; repeat a key only to retry the same brief.",
  },
  brief_quota_exceeded: {
    status: 429,
    title: "Too many briefs",
    condition: "This OAuth client (or, for the contact form, this IP address) has filed 10 briefs in the last hour.",
    resolution: "Wait the number of seconds in Retry-After. Dry runs do not count; repeats of the same brief are collapsed, not counted.",
  },
  service_unavailable: {
    status: 503,
    title: "Service unavailable",
    condition: "The service cannot take this request right now: a store it depends on is unavailable or misconfigured.",
    resolution: "Retry after the number of seconds in the Retry-After header. Nothing was recorded.",
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof problems;

/** The fragment of the developer page that documents a code: `invalid_brief` -> `error-invalid-brief`. */
export const problemAnchor = (code: string) => `error-${code.replaceAll("_", "-")}`;
