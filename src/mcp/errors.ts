import { absolute, pagePaths } from "../paths.ts";

/**
 * Errors the HTTP layer answers before the SDK sees a message, as JSON-RPC error bodies (MCP clients read JSON-RPC,
 * not problem+json). `data.code` is the same stable code the REST API uses for the same condition.
 */
export const transportErrors = {
  parse_error: { status: 400, rpc: -32700, title: "Parse error", detail: "The body is not JSON." },
  invalid_request: {
    status: 400,
    rpc: -32600,
    title: "Invalid request",
    detail: "The body is not a JSON-RPC 2.0 request, notification or response (or a batch of them).",
  },
  method_not_allowed: {
    status: 405,
    rpc: -32000,
    title: "Method not allowed",
    detail: "/mcp answers POST only (stateless: no event stream, no session).",
  },
  forbidden_origin: { status: 403, rpc: -32000, title: "Forbidden", detail: "This Origin may not call the server." },
  payload_too_large: { status: 413, rpc: -32000, title: "Payload too large", detail: "The body is too large." },
  invalid_token: { status: 401, rpc: -32001, title: "Unauthorized", detail: "The access token is missing or not valid here." },
  insufficient_scope: { status: 403, rpc: -32003, title: "Insufficient scope", detail: "The access token lacks the scope svc:brief." },
  rate_limited: { status: 429, rpc: -32005, title: "Too many requests", detail: "The quota for this client IP is used up." },
  service_unavailable: { status: 503, rpc: -32010, title: "Service unavailable", detail: "Try again later." },
} as const;

export type TransportError = keyof typeof transportErrors;

export const mcpErrorsAnchor = "mcp-errors";

export function rpcError(
  baseUrl: string,
  code: TransportError,
  options: { id?: string | number | null; detail?: string; headers?: Record<string, string> } = {},
): Response {
  const e = transportErrors[code];
  const body = {
    jsonrpc: "2.0",
    id: options.id ?? null,
    error: {
      code: e.rpc,
      message: `${e.title}: ${options.detail ?? e.detail}`,
      data: { code, documentation_url: `${absolute(baseUrl, pagePaths.developers)}#${mcpErrorsAnchor}` },
    },
  };
  return Response.json(body, { status: e.status, headers: { "Cache-Control": "no-store", ...options.headers } });
}
