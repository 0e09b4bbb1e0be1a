import { z } from "zod";

/** One documented field of a JSON document: its path, its type in words, and what it means. */
export interface FieldDoc {
  path: string;
  type: string;
  description: string;
}

interface JsonSchema {
  type?: string | string[];
  format?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  description?: string;
}

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  if (schema.type === "array") return `array of ${schema.items ? typeOf(schema.items) : "any"}`;
  if (schema.type === "string" && schema.format) return `string (${schema.format === "uri" ? "URL" : schema.format})`;
  return Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
}

/** Flattens a zod schema into field rows (`a.b`, `list[].c`) for the developer page; the schema is the source. */
export function fieldDocs(schema: z.ZodType): FieldDoc[] {
  const rows: FieldDoc[] = [];
  const walk = (node: JsonSchema, path: string) => {
    const object = node.type === "object" ? node : node.type === "array" && node.items?.type === "object" ? node.items : undefined;
    if (path !== "")
      rows.push({
        path,
        type: object === node.items && object ? "array of objects" : object ? "object" : typeOf(node),
        description: node.description ?? "",
      });
    if (!object?.properties) return;
    const prefix = path === "" ? "" : object === node.items ? `${path}[].` : `${path}.`;
    for (const [name, child] of Object.entries(object.properties)) walk(child, `${prefix}${name}`);
  };
  walk(z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchema, "");
  return rows;
}
