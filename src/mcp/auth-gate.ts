import type { Scope } from "../tokens/metadata.ts";
import { bookingScope, bookingToolNames } from "../booking/names.ts";
import { briefToolName, briefToolScope } from "./brief-tool.ts";

/** The tools that need a scope: each writes something a person answers (a brief, a booked or cancelled call). */
export const toolScopes: Record<string, Scope> = {
  [briefToolName]: briefToolScope,
  [bookingToolNames.book]: bookingScope,
  [bookingToolNames.cancel]: bookingScope,
};

/**
 * What a POST body needs before the SDK may see it, and the id a refusal answers. Reads need nothing; a tools/call of a
 * tool in `toolScopes` needs its scope, and must be refused at the HTTP level (401 or 403 with WWW-Authenticate), because that is what makes
 * standard MCP clients start the OAuth flow or step up: a tool result with isError would not.
 */
export function scopesNeeded(body: unknown): { scopes: Scope[]; id: string | number | null } {
  // Batches belong to 2025-03-26; any call in one counts.
  const messages = Array.isArray(body) ? body : [body];
  // The name is read only as a string: anything else (an array 20,000 deep, say) names no tool, and is never stringified.
  const scoped = (m: unknown) => {
    const name = (m as { params?: { name?: unknown } }).params?.name;
    return typeof name === "string" && Object.hasOwn(toolScopes, name) ? toolScopes[name] : undefined;
  };
  const call = messages.find(
    (m): m is { id?: unknown } => typeof m === "object" && m !== null && m.method === "tools/call" && scoped(m) !== undefined,
  );
  // The id a refusal answers: the scoped call's, else the single request's (a bad token refuses any request).
  if (!call) return { scopes: [], id: Array.isArray(body) ? null : idOf(body) };
  return { scopes: [scoped(call)!], id: idOf(call) };
}

const idOf = (message: unknown) => {
  const id = typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
};
