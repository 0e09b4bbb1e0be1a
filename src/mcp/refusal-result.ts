import type { CallToolResult } from "@modelcontextprotocol/server";
import type { FieldError } from "../briefs/validate.ts";
import { conditionOf } from "../http/conditions.ts";
import type { Refusal } from "../http/refusal.ts";
import { toolError } from "./tool.ts";

export const fieldLines = (errors: FieldError[]) => errors.map((e) => `- ${e.field} (${e.code}): ${e.message}`).join("\n");

/**
 * A refusal as a tool-execution error the model can act on (MCP: tools): what happened, what to do, each field to fix,
 * and the details as JSON (the REST problem's code, errors and fresh free times).
 */
export function refusalResult(refusal: Refusal, what: string): CallToolResult {
  const condition = conditionOf(refusal.condition);
  const { errors, free_times } = (refusal.options.extensions ?? {}) as { errors?: FieldError[]; free_times?: unknown };
  const lines = [
    `${what} ${refusal.options.detail ?? condition.when} ${refusal.options.resolution ?? condition.resolution}`,
    ...(errors ? [fieldLines(errors)] : []),
  ];
  const details = { code: condition.problem ?? refusal.condition, ...(errors ? { errors } : {}), ...(free_times ? { free_times } : {}) };
  return toolError(`${lines.join("\n")}\n\n${JSON.stringify(details, null, 2)}`);
}
