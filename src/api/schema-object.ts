import { z } from "zod";

/**
 * A zod schema as an OpenAPI 3.1 schema object (JSON Schema 2020-12, without the `$schema` keyword): what a client
 * sends (input, before transforms) or what it gets back (output).
 */
export function schemaObject(schema: z.ZodType, io: "input" | "output" = "output"): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { unrepresentable: "any", io }) as Record<string, unknown>;
  return rest;
}
