/**
 * The JSON-RPC 2.0 shape of a message, checked before the SDK sees it. The SDK's schema refuses any member beyond
 * JSON-RPC's own with -32700 "Parse error" and a null id; a body that parsed is not a parse error, and a request whose id
 * could be read deserves an answer carrying it. So members JSON-RPC does not define are dropped (MCP puts its own
 * under params._meta), and a message that is not a request, notification or response is an Invalid Request (-32600).
 */
const members = ["jsonrpc", "id", "method", "params", "result", "error"] as const;

const isId = (id: unknown) => typeof id === "string" || typeof id === "number" || id === null;
const isParams = (params: unknown) => params === undefined || (typeof params === "object" && params !== null);

export type Checked = { ok: true; message: Record<string, unknown> } | { ok: false; id: string | number | null };

export function checkMessage(value: unknown): Checked {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, id: null };
  const input = value as Record<string, unknown>;
  const id = typeof input.id === "string" || typeof input.id === "number" ? input.id : null;
  const message: Record<string, unknown> = {};
  for (const name of members) if (Object.hasOwn(input, name)) message[name] = input[name];
  const request = typeof message.method === "string" && isParams(message.params) && (!("id" in message) || isId(message.id));
  const response = !("method" in message) && "id" in message && isId(message.id) && "result" in message !== "error" in message;
  return message.jsonrpc === "2.0" && (request || response) ? { ok: true, message } : { ok: false, id };
}
