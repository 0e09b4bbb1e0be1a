import { ClientRequestSchema } from "@modelcontextprotocol/core";
import type { Era } from "./server.ts";

/**
 * Each request MCP defines, by method, with its params' schema: the SDK's own (its `ClientRequestSchema`), checked at the
 * gate. The SDK checks them too, but answers a handler's failed check as an internal error (-32603) with zod's issue
 * list for a message; at the gate the same check is invalid params (-32602) in words.
 */
const schemas = new Map(ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema]));

/**
 * The requests the 2026-07-28 revision defines (its schema's ClientRequest). The others it removed (initialize,
 * logging/setLevel, resources/subscribe, tasks/*, ...): the SDK answers them 404 with -32601 before any params are
 * read, so their params are not checked here on that revision. The SDK keeps this set to itself.
 */
const revision2026Methods = new Set([
  "tools/call",
  "tools/list",
  "prompts/get",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
  "server/discover",
  "subscriptions/listen",
]);

/** At most this many problems are named: the rest are left out. */
const namedProblems = 5;

/**
 * What is wrong with a request's params, in words ("params.arguments.a: expected string, received object"), or nothing
 * when they are well-formed or the method is none of the revision's (the SDK answers that -32601).
 */
export function paramsProblem(message: { method?: unknown; params?: unknown }, era: Era): string | undefined {
  if (typeof message.method !== "string" || (era === "modern" && !revision2026Methods.has(message.method))) return undefined;
  const schema = schemas.get(message.method);
  const checked = schema?.safeParse({ method: message.method, params: message.params });
  if (!checked || checked.success) return undefined;
  const problems = checked.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "params";
    return `${where}: ${issue.message.replace(/^Invalid input: /, "")}`;
  });
  const more = problems.length > namedProblems ? ` (and ${problems.length - namedProblems} more)` : "";
  return `${problems.slice(0, namedProblems).join("; ")}${more}.`;
}
