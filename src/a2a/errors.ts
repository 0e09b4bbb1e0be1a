/**
 * JSON-RPC errors this agent answers itself, before the SDK sees a request. The A2A codes (-32001 to -32009) and
 * JSON-RPC's own are the protocol's; A2A 1.0 defines no codes for quota, authentication and outages, so those four use
 * the implementation-defined server-error range, next to their HTTP status (429, 401, 403, 503), with a
 * google.rpc.ErrorInfo.
 */
export const rpcErrorCodes = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  unsupported_operation: -32004,
  content_type_not_supported: -32005,
  version_not_supported: -32009,
  rate_limited: -32090,
  invalid_token: -32091,
  insufficient_scope: -32092,
  service_unavailable: -32093,
} as const;

export type RpcErrorName = keyof typeof rpcErrorCodes;

export interface RpcError {
  code: number;
  message: string;
  data?: { "@type": string; reason: string; domain: string; metadata?: Record<string, string> }[];
}

export const rpcError = (name: RpcErrorName, message: string): RpcError => ({
  code: rpcErrorCodes[name],
  message,
  data: [
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: name.toUpperCase(),
      domain: rpcErrorCodes[name] <= -32090 ? "frontdoor" : "a2a-protocol.org",
    },
  ],
});
