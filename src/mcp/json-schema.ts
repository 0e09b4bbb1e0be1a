import { z } from "zod";

export type JsonSchemaObject = { type: "object"; [key: string]: unknown };

/**
 * A zod schema as the JSON Schema an MCP tool publishes (2020-12, the dialect MCP assumes when `$schema` is absent):
 * inputs describe what a client may send (before transforms), outputs what the tool returns.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchemaObject {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  if (rest.type !== "object") throw new Error("an MCP tool schema must describe an object");
  return rest as JsonSchemaObject;
}
