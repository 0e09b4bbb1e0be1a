import { perWindow, policies } from "../limits/policies.ts";
import { maxJsonDepth } from "./json-depth.ts";

/**
 * Every condition a door can refuse a request for, with its answer in every protocol: the HTTP status, the REST
 * problem code (RFC 9457, under /api), the OAuth error (RFC 6749/6750, under /oauth), the JSON-RPC error number
 * (on /mcp and /a2a/v1 alike) and the google.rpc.Code name of A2A's HTTP+JSON binding (under /a2a/v1/rest). This table is the only definition: the doors render it, and the developer page, the
 * OpenAPI document and the agents' documentation are generated from it.
 *
 * JSON-RPC numbers: the standard ones (-32700, -32600, -32601, -32602) where JSON-RPC defines the condition, MCP's own
 * where MCP defines it (-32020, a header that disagrees with the body), A2A's own where A2A defines it (-32004, -32005,
 * -32009), else our own -32086 to -32099. They never clash with
 * the SDKs' own (MCP: -32000 connection closed, -32001 request timeout,
 * -32002 resource not found, -32020 header mismatch, -32021 missing client capability, -32022 unsupported protocol
 * version, -32042 URL elicitation; A2A: -32001 to -32009).
 *
 * A2A's protocol errors are rows too, answered only under /a2a/v1. OAuth's own errors (RFC 6749, RFC 7591, RFC 8707)
 * and the consent page's are answered only under /oauth: they have no problem code, JSON-RPC number or google.rpc.Code,
 * since no other door refuses for them.
 */
export interface Condition {
  status: number;
  /** The `code` of the problem document under /api; undefined where /api never answers it. */
  problem?: string;
  /** The `error` of an OAuth error response; undefined where /oauth never answers it. */
  oauth?: string;
  /** The JSON-RPC `error.code` on /mcp and /a2a/v1: every condition those doors refuse for has one. */
  rpc?: number;
  /** The `error.status` (a google.rpc.Code name, AIP-193) on A2A's HTTP+JSON binding, likewise. */
  a2aRest?: GoogleRpcCode;
  /** The Retry-After every refusal for it carries, unless the refusal knows better (a quota's reset). */
  retryAfterSeconds?: number;
  /**
   * How an A2A task refused for it ends: `input-required` where a reply in the same task can mend it (`reply` says
   * with what), `rejected` where the agent declines the work for now (a quota). Absent: the task fails.
   */
  task?: { state: "input-required"; reply: string } | { state: "rejected" };
  title: string;
  /** When it happens, for the documentation. */
  when: string;
  /** What the client should do next. */
  resolution: string;
}

/** The google.rpc.Code names the HTTP+JSON binding answers with (AIP-193). */
export type GoogleRpcCode =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "UNIMPLEMENTED"
  | "FAILED_PRECONDITION"
  | "PERMISSION_DENIED"
  | "UNAUTHENTICATED"
  | "RESOURCE_EXHAUSTED"
  | "UNAVAILABLE"
  | "INTERNAL";

const briefs = policies["briefs-per-grant"];
const bookings = policies["bookings-per-grant"];

export const conditions = {
  not_found: {
    status: 404,
    problem: "not_found",
    oauth: "invalid_request",
    // A path under /mcp or /a2a/v1 that is not an endpoint (each function takes every path under its own).
    rpc: -32089,
    a2aRest: "NOT_FOUND",
    title: "Not found",
    when: "The path is not a resource of this API.",
    resolution:
      "Check the path against the resource list in the API index at /api/v1; paths are case-sensitive and have no trailing slash.",
  },
  method_not_allowed: {
    status: 405,
    problem: "method_not_allowed",
    oauth: "invalid_request",
    rpc: -32095,
    a2aRest: "UNIMPLEMENTED",
    title: "Method not allowed",
    when: "The resource does not support the method; the Allow header lists the methods it does support.",
    resolution:
      "Use one of the methods in the Allow header. Reads are GET (or HEAD); writes are POST (a brief, a booking, its cancellation).",
  },
  unsupported_media_type: {
    status: 415,
    oauth: "invalid_request",
    rpc: -32099,
    a2aRest: "INVALID_ARGUMENT",
    title: "Unsupported media type",
    when: "The request body is not of the media type the endpoint reads (application/json, or a form at /oauth).",
    resolution: "Send the body with the Content-Type the endpoint names.",
  },
  invalid_json: {
    status: 400,
    problem: "invalid_json",
    oauth: "invalid_request",
    rpc: -32700,
    a2aRest: "INVALID_ARGUMENT",
    title: "Invalid JSON",
    when: "The request body is not JSON, or not the JSON object the endpoint expects.",
    resolution: "Send a JSON object with Content-Type: application/json.",
  },
  invalid_params: {
    status: 400,
    rpc: -32602,
    a2aRest: "INVALID_ARGUMENT",
    title: "Invalid params",
    when: "A JSON-RPC request's params are not what its method takes: a member of the wrong type, or a required one missing.",
    resolution: "Send the params the method's schema describes; the message names each member that is wrong.",
  },
  nested_too_deep: {
    status: 400,
    problem: "nested_too_deep",
    rpc: -32602,
    a2aRest: "INVALID_ARGUMENT",
    title: "Nested too deep",
    when: `The request body nests arrays and objects more than ${maxJsonDepth} levels deep.`,
    resolution: "Send flatter JSON: no request of this API needs more than a few levels.",
  },
  invalid_request: {
    status: 400,
    oauth: "invalid_request",
    rpc: -32600,
    a2aRest: "INVALID_ARGUMENT",
    title: "Invalid request",
    when: "The body is JSON but not a JSON-RPC 2.0 request, notification or response; or it is a batch (an array of them) that the endpoint does not take: /a2a/v1 takes none, and /mcp only as its section says.",
    resolution: "Send one JSON-RPC 2.0 object with jsonrpc, method and (for a request) id; send a batch's messages one per POST.",
  },
  payload_too_large: {
    status: 413,
    problem: "payload_too_large",
    oauth: "invalid_request",
    rpc: -32094,
    a2aRest: "INVALID_ARGUMENT",
    title: "Payload too large",
    when: "The request body is larger than the endpoint accepts.",
    resolution: "Send a smaller body: the developer guide lists each endpoint's limit.",
  },
  header_mismatch: {
    status: 400,
    rpc: -32020,
    a2aRest: "INVALID_ARGUMENT",
    title: "Header mismatch",
    when: "A 2026-07-28 tools/call's Mcp-Param header (SEP-2243) is missing, is not valid Base64 in its =?base64?...?= form, or says something else than the argument it mirrors.",
    resolution:
      "Send each argument whose input schema names x-mcp-header in its Mcp-Param header too, as it is or as canonical Base64 with its padding inside =?base64?...?=, as MCP clients do.",
  },
  forbidden_origin: {
    status: 403,
    rpc: -32096,
    a2aRest: "PERMISSION_DENIED",
    title: "Forbidden origin",
    when: "A browser page from another site called an endpoint that only its own site's pages may call.",
    resolution: "Call it from a server, a desktop client, or a page of this site.",
  },
  rate_limited: {
    status: 429,
    problem: "rate_limited",
    oauth: "rate_limited",
    rpc: -32090,
    a2aRest: "RESOURCE_EXHAUSTED",
    title: "Too many requests",
    when: "A quota the request counts against is exhausted for the current window: its grant's (a valid token), its address's, or the address's ceiling for all its grants.",
    resolution: "Wait the number of seconds in the Retry-After header, then retry. Pace requests using the RateLimit header.",
  },
  invalid_token: {
    status: 401,
    problem: "invalid_token",
    oauth: "invalid_token",
    rpc: -32091,
    a2aRest: "UNAUTHENTICATED",
    title: "Invalid access token",
    when: "The access token is missing, expired, or not valid here.",
    resolution: "Get a new token from /oauth/token (tokens last one hour) and send it as Authorization: Bearer <token>.",
  },
  insufficient_scope: {
    status: 403,
    problem: "insufficient_scope",
    oauth: "insufficient_scope",
    rpc: -32092,
    a2aRest: "PERMISSION_DENIED",
    title: "Insufficient scope",
    when: "The access token lacks the scope svc:brief.",
    resolution: "Request a new token with scope=svc:brief; registration and tokens are self-serve.",
  },
  invalid_brief: {
    status: 422,
    problem: "invalid_brief",
    rpc: -32602,
    a2aRest: "INVALID_ARGUMENT",
    task: { state: "input-required", reply: "Reply in this task with a data part holding the corrected fields." },
    title: "Invalid brief",
    when: "A brief field is missing or invalid; the errors array names each one.",
    resolution: "Fix every field listed in errors and send the brief again.",
  },
  invalid_idempotency_key: {
    status: 400,
    problem: "invalid_idempotency_key",
    rpc: -32602,
    a2aRest: "INVALID_ARGUMENT",
    task: {
      state: "input-required",
      reply: "Reply in this task with a data part holding a valid idempotency_key; a reply without one books without a key.",
    },
    title: "Invalid Idempotency-Key",
    when: "The Idempotency-Key (the MCP tool's idempotency_key) is empty, longer than 255 characters, or not printable ASCII.",
    resolution: "Send a unique printable ASCII value of at most 255 characters, such as a UUID, or leave it out.",
  },
  idempotency_key_reused: {
    status: 422,
    problem: "idempotency_key_reused",
    rpc: -32097,
    a2aRest: "INVALID_ARGUMENT",
    title: "Idempotency-Key reused",
    when: "The Idempotency-Key was already used in the last 24 hours with a different brief or booking.",
    resolution: "Use a new Idempotency-Key for a different brief or booking; repeat a key only to retry the same one.",
  },
  brief_quota_exceeded: {
    status: 429,
    problem: "brief_quota_exceeded",
    rpc: -32098,
    a2aRest: "RESOURCE_EXHAUSTED",
    task: { state: "rejected" },
    title: "Too many briefs",
    when: `This grant (one person's approval of a client, or a client_credentials client; for the contact form, this IP address) has filed ${briefs.quota} briefs ${perWindow(briefs.windowSeconds)}.`,
    resolution: "Wait the number of seconds in Retry-After. Dry runs do not count; repeats of the same brief are collapsed, not counted.",
  },
  invalid_query: {
    status: 400,
    problem: "invalid_query",
    rpc: -32602,
    a2aRest: "INVALID_ARGUMENT",
    title: "Invalid query",
    when: "A query parameter is unknown, malformed or out of range; the errors array names each one.",
    resolution: "Fix every parameter listed in errors; the operation's documentation gives each one's range.",
  },
  invalid_booking: {
    status: 422,
    problem: "invalid_booking",
    rpc: -32602,
    a2aRest: "INVALID_ARGUMENT",
    task: { state: "input-required", reply: "Reply in this task with a data part holding the corrected fields." },
    title: "Invalid booking",
    when: "A booking field is missing or invalid, or lead_id names no brief this grant filed; the errors array names each one.",
    resolution: "Fix every field listed in errors and send the booking again; take start from free times.",
  },
  slot_taken: {
    status: 409,
    problem: "slot_taken",
    rpc: -32088,
    a2aRest: "FAILED_PRECONDITION",
    task: { state: "input-required", reply: "Reply in this task with a data part holding another start from free_times." },
    title: "Time not free",
    when: "The chosen start is not a free time (any more): someone booked it first, or it is too soon, outside the hours, or not a slot's start; errors names /start.",
    resolution: "Choose another start from free_times (fresh free times for the same days) and book again.",
  },
  booking_quota_exceeded: {
    status: 429,
    problem: "booking_quota_exceeded",
    rpc: -32087,
    a2aRest: "RESOURCE_EXHAUSTED",
    task: { state: "rejected" },
    title: "Too many bookings",
    when: `This grant has booked ${bookings.quota} calls ${perWindow(bookings.windowSeconds)}.`,
    resolution: "Wait the number of seconds in Retry-After, or write to the studio. Dry runs and replays do not count.",
  },
  booking_not_offered: {
    status: 404,
    problem: "booking_not_offered",
    rpc: -32086,
    a2aRest: "NOT_FOUND",
    title: "Booking not offered",
    when: "This deployment does not book calls through its API (no Cal.com event type is configured).",
    resolution: "Use the booking link in the contact resource (/api/v1/contact), or file a brief: a person replies by e-mail.",
  },
  calendar_unavailable: {
    status: 503,
    problem: "calendar_unavailable",
    rpc: -32093,
    a2aRest: "UNAVAILABLE",
    retryAfterSeconds: 30,
    title: "Calendar unavailable",
    when: "Cal.com, which keeps the studio's calendar, did not answer in time, or answered that it is busy or failing.",
    resolution:
      "Retry after the number of seconds in Retry-After, with the same Idempotency-Key for a booking: a booking whose answer was lost is found, never made twice.",
  },
  service_unavailable: {
    status: 503,
    problem: "service_unavailable",
    oauth: "temporarily_unavailable",
    rpc: -32093,
    a2aRest: "UNAVAILABLE",
    retryAfterSeconds: 30,
    title: "Service unavailable",
    when: "The service cannot take this request right now: a store it depends on is unavailable.",
    resolution: "Retry after the number of seconds in the Retry-After header. Nothing was recorded.",
  },
  misconfigured: {
    status: 503,
    problem: "service_unavailable",
    oauth: "server_error",
    rpc: -32093,
    a2aRest: "UNAVAILABLE",
    // A variable is fixed by a deploy, not in seconds.
    retryAfterSeconds: 300,
    title: "Service unavailable",
    when: "The deployment is not configured correctly (a missing or broken variable); its operator has a log line to act on.",
    resolution: "Retry later; the operator has been alerted. Nothing was recorded.",
  },

  // A2A's own (A2A 1.0 §5.4), under /a2a/v1 only: their numbers and reasons are the protocol's, so SDK clients map them
  // to their typed errors. The HTTP status is the HTTP+JSON binding's; the JSON-RPC binding answers them with 200.
  method_not_found: {
    status: 404,
    rpc: -32601,
    title: "Method not found",
    when: "The JSON-RPC method is not one the request's A2A version defines (a 0.3 name sent with A2A-Version: 1.0, or the reverse).",
    resolution: "Send a method of the version you name in A2A-Version: the A2A section lists both.",
  },
  unsupported_operation: {
    status: 400,
    rpc: -32004,
    a2aRest: "FAILED_PRECONDITION",
    title: "Unsupported operation",
    when: "The operation is one A2A defines but this agent does not offer: streaming, or the extended agent card.",
    resolution: "Use SendMessage and poll GetTask; the agent card's capabilities say what is offered.",
  },
  content_type_not_supported: {
    status: 400,
    rpc: -32005,
    a2aRest: "INVALID_ARGUMENT",
    title: "Content type not supported",
    when: "A message carries a part this agent does not read: a file, or nothing but empty parts.",
    resolution: "Send text parts and data parts (application/json) only.",
  },
  version_not_supported: {
    status: 400,
    rpc: -32009,
    a2aRest: "FAILED_PRECONDITION",
    title: "Version not supported",
    when: "The A2A-Version header names a version this binding does not serve.",
    resolution: "Send A2A-Version: 1.0 (or 0.3, or none, on the JSON-RPC binding).",
  },

  // OAuth's own, under /oauth only.
  invalid_oauth_request: {
    status: 400,
    oauth: "invalid_request",
    title: "Invalid OAuth request",
    when: "A parameter is missing, malformed or given twice, or the body is not a form (application/x-www-form-urlencoded).",
    resolution: "Send each parameter once, in a form body; error_description names what is wrong.",
  },
  invalid_client: {
    status: 401,
    oauth: "invalid_client",
    title: "Client authentication failed",
    when: "The token endpoint cannot authenticate the client: an unknown client_id, a wrong or missing secret or client assertion, or a refused client metadata document.",
    resolution: "Send client_id with the proof the client registered (client_secret, client_assertion, or none for a public client).",
  },
  invalid_grant: {
    status: 400,
    oauth: "invalid_grant",
    title: "Invalid grant",
    when: "The authorization code is invalid, expired, already used, or was issued for another client, redirect_uri or code_challenge.",
    resolution: "Send the person through the authorization again for a new code; a code works once.",
  },
  unauthorized_client: {
    status: 400,
    oauth: "unauthorized_client",
    title: "Unauthorized client",
    when: "The client is not registered for the grant it asks for.",
    resolution: "Use a client registered with that grant in its grant_types.",
  },
  unsupported_grant_type: {
    status: 400,
    oauth: "unsupported_grant_type",
    title: "Unsupported grant type",
    when: "grant_type is neither authorization_code nor client_credentials.",
    resolution: "Use authorization_code (with PKCE) or client_credentials.",
  },
  unsupported_response_type: {
    status: 400,
    oauth: "unsupported_response_type",
    title: "Unsupported response type",
    when: "An authorization request's response_type is not code.",
    resolution: "Send response_type=code.",
  },
  pkce_required: {
    status: 400,
    oauth: "invalid_request",
    title: "PKCE required",
    when: "An authorization request has no code_challenge with code_challenge_method S256.",
    resolution: "Send a code_challenge of 43 to 128 characters with code_challenge_method=S256; plain is refused.",
  },
  invalid_scope: {
    status: 400,
    oauth: "invalid_scope",
    title: "Invalid scope",
    when: "A requested scope is not one of this server's.",
    resolution: "Ask only for the scopes the scope table lists.",
  },
  invalid_target: {
    status: 400,
    oauth: "invalid_target",
    title: "Invalid resource",
    when: "The resource is not one of this server's resource identifiers, names more than one, or at the token endpoint is not the one the authorization request named.",
    resolution: "Send one resource identifier, or none for the origin.",
  },
  invalid_client_metadata: {
    status: 400,
    oauth: "invalid_client_metadata",
    title: "Invalid client metadata",
    when: "A registration's body is not a JSON object, or a field of its metadata is invalid or not offered here.",
    resolution: "Fix the field error_description names and register again.",
  },
  client_metadata_too_large: {
    status: 413,
    oauth: "invalid_client_metadata",
    title: "Client metadata too large",
    when: "A registration's body is larger than the endpoint accepts.",
    resolution: "Send less metadata: the developer guide gives the limit.",
  },
  invalid_redirect_uri: {
    status: 400,
    oauth: "invalid_redirect_uri",
    title: "Invalid redirect URI",
    when: "A redirect URI is malformed, one too many, or of a kind the client's application_type may not register.",
    resolution: "Register redirect URIs that follow the rules of the registration section; error_description names the URI and the rule.",
  },

  // The consent page's own: shown to the person, never sent to a redirect URI.
  unknown_client_or_redirect_uri: {
    status: 400,
    title: "Unknown client or redirect URI",
    when: "An authorization request names no client registered here, or a redirect_uri its client did not register or that a rule now refuses.",
    resolution: "Send a registered client_id with one of its redirect URIs; register again if a rule now refuses them.",
  },
  consent_expired: {
    status: 403,
    title: "Consent form expired",
    when: "The consent form has expired, or was not sent from the page this server showed (its cookie is missing or does not match).",
    resolution: "Start the authorization again.",
  },
  consent_answered: {
    status: 409,
    title: "Consent form answered",
    when: "The consent form was already answered (a double click, the back button).",
    resolution: "Nothing to do: the first answer stands.",
  },
} as const satisfies Record<string, Condition>;

export type ConditionName = keyof typeof conditions;

/** A condition's row, typed as the table's rows are (optional protocols included). */
export const conditionOf = (name: ConditionName): Condition => conditions[name];

/** What every door in front of an agent SDK refuses before the SDK sees a request: the media type, size, token and quota. */
const sdkDoorConditions = [
  "nested_too_deep",
  "unsupported_media_type",
  "method_not_allowed",
  "payload_too_large",
  "invalid_token",
  "insufficient_scope",
  "rate_limited",
  "service_unavailable",
] as const satisfies ConditionName[];

/** What a JSON-RPC door (/mcp, /a2a/v1) refuses before its SDK sees a request (a path under it that is not the endpoint: not_found), for their documentation. */
export const jsonRpcDoorConditions = [
  "not_found",
  "invalid_json",
  "invalid_request",
  ...sdkDoorConditions,
] as const satisfies ConditionName[];

/** What A2A's HTTP+JSON binding refuses before the SDK's REST handler sees a request, for its documentation. */
export const a2aRestDoorConditions = ["not_found", "invalid_json", ...sdkDoorConditions] as const satisfies ConditionName[];
