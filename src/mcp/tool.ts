import type { CallToolResult, ClientCapabilities, InputRequiredResult, ToolAnnotations } from "@modelcontextprotocol/server";
import type { Caller as TokenCaller } from "../http/bearer.ts";
import type { JsonSchemaObject } from "./json-schema.ts";
import type { Decision } from "./form-decisions.ts";

/** What tools/list publishes for a tool; the server card and the developer page are generated from the same value. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
  annotations: ToolAnnotations;
}

/** Who is calling, as the HTTP layer verified the token (no token: undefined), and the request's waitUntil. */
export type Caller = Omit<TokenCaller, "token"> & { waitUntil?: (work: Promise<unknown>) => void };

/**
 * One call of a tool: who calls, and what the client said about itself. A 2026-07-28 client declares its capabilities
 * with every request; a 2025-era client on this stateless endpoint never does (it has no session to remember its
 * `initialize` by), so `clientCapabilities` is undefined there.
 */
export interface ToolCall {
  caller: Caller | undefined;
  era: "legacy" | "modern";
  clientCapabilities: ClientCapabilities | undefined;
  /** 2026-07-28, where the server can sign state: what a retried call carries, and how to hand out state for the next. */
  rounds?: Rounds;
}

/** The multi-round-trip request (2026-07-28): the client's answers to the last input-required result, and its state. */
export interface Rounds {
  inputResponses: Record<string, unknown> | undefined;
  /** The echoed `requestState` as its signature check decoded it (a state that fails the check never gets here). */
  state: unknown;
  /** Signs the state for the next round, bound to this call's method and grant. */
  mint(payload: object): Promise<string>;
  /** Records the person's decision on a form, unless one stands already: gives the one that stands (form-decisions.ts). */
  decide(form: string, decision: Decision): Promise<Decision>;
}

/**
 * What a tool answers: a result, or (2026-07-28) an input-required result that asks the client for something first
 * and is called again with the answers.
 */
export type ToolResult = CallToolResult | InputRequiredResult;

export interface Tool extends ToolDefinition {
  run(args: Record<string, unknown>, call: ToolCall): Promise<ToolResult>;
}

/** A successful result: the structured value, and the same value as readable text for clients that show only text. */
export const structuredResult = (summary: string, value: object): CallToolResult => ({
  content: [{ type: "text", text: `${summary}\n\n${JSON.stringify(value, null, 2)}` }],
  structuredContent: value as Record<string, unknown>,
});

/** A tool-execution error (not a protocol error), so a model can read it, fix its arguments and retry. */
export const toolError = (text: string, details?: object): CallToolResult => ({
  content: [{ type: "text", text }],
  ...(details ? { structuredContent: details as Record<string, unknown> } : {}),
  isError: true,
});
