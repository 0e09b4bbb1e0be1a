import type { CallToolResult } from "@modelcontextprotocol/server";
import type { FieldError } from "../briefs/validate.ts";
import { conditionOf } from "../http/conditions.ts";
import { refusalData } from "../http/formats.ts";
import type { Refusal } from "../http/refusal.ts";
import { toolError } from "./tool.ts";

export const fieldLines = (errors: FieldError[]) => errors.map((e) => `- ${e.field} (${e.code}): ${e.message}`).join("\n");

/**
 * A refusal as a tool-execution error the model can act on (MCP: tools): what happened, what to do, each field to fix,
 * and the details as JSON (`refusalData`: the REST problem's code, errors, fresh free times, retry_after).
 */
export function refusalResult(refusal: Refusal, what: string): CallToolResult {
  const condition = conditionOf(refusal.condition);
  const { errors } = (refusal.options.extensions ?? {}) as { errors?: FieldError[] };
  const lines = [
    `${what} ${refusal.options.detail ?? condition.when} ${refusal.options.resolution ?? condition.resolution}`,
    ...(errors ? [fieldLines(errors)] : []),
  ];
  return toolError(`${lines.join("\n")}\n\n${JSON.stringify(refusalData(refusal), null, 2)}`);
}
