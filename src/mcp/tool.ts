import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaObject } from "./json-schema.ts";

/** What tools/list publishes for a tool; the server card and the developer page are generated from the same value. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
  annotations: ToolAnnotations;
}

/** Who is calling, as the HTTP layer verified it (no token: undefined), and the request's waitUntil. */
export interface Caller {
  clientId: string;
  scopes: string[];
  waitUntil?: (work: Promise<unknown>) => void;
}

export interface Tool extends ToolDefinition {
  run(args: Record<string, unknown>, caller: Caller | undefined): Promise<CallToolResult>;
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
