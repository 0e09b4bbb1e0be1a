import {
  ContentTypeNotSupportedError,
  RequestMalformedError,
  restStatusFor,
  toRestErrorBody,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "@a2a-js/sdk/errors";
import { conditions, jsonRpcDoorConditions, type ConditionName } from "../http/conditions.ts";
import { googleRpcStatus, jsonRpc } from "../http/formats.ts";
import { a2aMediaType } from "./media-type.ts";

/**
 * A2A's own JSON-RPC errors that this agent answers before the SDK sees a request (the SDK answers the rest: task not
 * found, and so on). Refusals common to every door (quota, tokens, outages, sizes) come from the conditions table.
 */
export const a2aProtocolErrors = {
  method_not_found: -32601,
  invalid_params: -32602,
  unsupported_operation: -32004,
  content_type_not_supported: -32005,
  version_not_supported: -32009,
} as const;

export type A2AProtocolError = keyof typeof a2aProtocolErrors;
/** The HTTP+JSON binding has no methods, only routes: its unknown route is a 404 of the conditions table. */
export type A2ARestProtocolError = Exclude<A2AProtocolError, "method_not_found">;

/** A google.rpc.ErrorInfo (A2A 1.0 §9: error details), naming who defines the code. */
const errorInfo = (reason: string, domain: string) => [
  { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: reason.toUpperCase(), domain },
];

/** The agent's refusals from the conditions table, as JSON-RPC errors with an ErrorInfo. */
export const a2aErrors = jsonRpc({ data: (name: ConditionName) => errorInfo(name, "frontdoor"), messageErrorsAs200: true });

/** An A2A protocol error answering a request that was read (HTTP 200, as the JSON-RPC binding answers errors). */
export const protocolError = (name: A2AProtocolError, message: string, id: unknown) =>
  Response.json(
    {
      jsonrpc: "2.0",
      id: typeof id === "string" || typeof id === "number" ? id : null,
      error: { code: a2aProtocolErrors[name], message, data: errorInfo(name, "a2a-protocol.org") },
    },
    { headers: { "Cache-Control": "no-store" } },
  );

/** The agent's refusals from the conditions table on the HTTP+JSON binding: a google.rpc.Status (AIP-193). */
export const a2aRestErrors = googleRpcStatus({ domain: "frontdoor", contentType: a2aMediaType });

const sdkErrors = {
  invalid_params: RequestMalformedError,
  unsupported_operation: UnsupportedOperationError,
  content_type_not_supported: ContentTypeNotSupportedError,
  version_not_supported: VersionNotSupportedError,
} as const satisfies Record<A2ARestProtocolError, unknown>;

/** An A2A protocol error on the HTTP+JSON binding, rendered by the SDK as its REST handler renders its own. */
export function restProtocolError(name: A2ARestProtocolError, message: string): Response {
  const error = new sdkErrors[name](message);
  const status = restStatusFor(error);
  return Response.json(toRestErrorBody(error, status), {
    status,
    headers: { "Cache-Control": "no-store", "Content-Type": a2aMediaType },
  });
}

/** The conditions /a2a/v1 answers before the SDK sees a request, for its documentation. */
export const a2aConditions = [...jsonRpcDoorConditions] as const satisfies ConditionName[];

/** Every JSON-RPC number this agent answers itself, by name: A2A's own and the conditions', most specific first. */
export const a2aErrorCodes = (): Record<string, number> =>
  Object.fromEntries(
    [...Object.entries(a2aProtocolErrors), ...a2aConditions.map((name) => [name, conditions[name].rpc] as const)].sort(
      ([, a], [, b]) => b - a,
    ),
  );
