import { a2aRestDoorConditions, conditions, jsonRpcDoorConditions, type ConditionName } from "../http/conditions.ts";
import { googleRpcStatus, jsonRpc } from "../http/formats.ts";
import { a2aMediaType } from "./media-type.ts";

/**
 * The conditions A2A itself defines (rows of the conditions table), that this agent answers before the SDK sees a
 * request; the SDK answers the rest (task not found, and so on). Their ErrorInfo names the protocol's domain, so an SDK
 * client turns them into its own typed errors.
 */
const protocolConditions = [
  "method_not_found",
  "invalid_params",
  "unsupported_operation",
  "content_type_not_supported",
  "version_not_supported",
] as const satisfies ConditionName[];

const definedByA2A = new Set<ConditionName>(protocolConditions);
const domainOf = (name: ConditionName) => (definedByA2A.has(name) ? "a2a-protocol.org" : "frontdoor");

/** A google.rpc.ErrorInfo (A2A 1.0 §9: error details), naming who defines the code. */
const errorInfo = (name: ConditionName) => [
  { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: name.toUpperCase(), domain: domainOf(name) },
];

/**
 * Errors in the JSON-RPC message itself, which A2A's JSON-RPC binding answers with HTTP 200: JSON-RPC's own (parse
 * error, invalid request, method not found, invalid params) and A2A's. Refusals of the exchange (a token, a quota, a
 * size, an outage) keep their HTTP status.
 */
const messageErrors = new Set([-32700, -32600, -32601, -32602, ...protocolConditions.map((name) => conditions[name].rpc)]);

/** The agent's refusals on the JSON-RPC binding: JSON-RPC errors with an ErrorInfo. */
export const a2aErrors = jsonRpc({ data: errorInfo, answeredWith200: messageErrors });

/** The agent's refusals on the HTTP+JSON binding: a google.rpc.Status (AIP-193). */
export const a2aRestErrors = googleRpcStatus({ domain: domainOf, contentType: a2aMediaType });

/** The conditions /a2a/v1 answers before the SDK sees a request, for its documentation. */
const a2aConditions = [...protocolConditions, ...jsonRpcDoorConditions] as const satisfies ConditionName[];

/** Every JSON-RPC number this agent answers itself, by name, most specific first. */
export const a2aErrorCodes = (): Record<string, number> =>
  Object.fromEntries(a2aConditions.map((name) => [name, conditions[name].rpc] as const).sort(([, a], [, b]) => b - a));

/** What the HTTP+JSON binding answers before the SDK's REST handler sees a request (it has routes, not methods). */
export const a2aRestConditions = [
  ...protocolConditions.filter((name) => name !== "method_not_found"),
  ...a2aRestDoorConditions,
] as const satisfies ConditionName[];
