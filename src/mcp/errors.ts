import { conditionOf, jsonRpcDoorConditions, type ConditionName } from "../http/conditions.ts";
import { jsonRpc } from "../http/formats.ts";
import { guideUrl } from "../paths.ts";

export const mcpErrorsAnchor = "mcp-errors";

/**
 * /mcp's refusals as JSON-RPC errors (MCP clients read JSON-RPC, not problem+json), with the number and status of the
 * conditions table. `data.code` is the stable code the REST API uses for the same condition, where it has one.
 */
export const mcpErrors = (baseUrl: string) =>
  jsonRpc({
    data: (name: ConditionName) => ({
      code: conditionOf(name).problem ?? name,
      documentation_url: guideUrl(baseUrl, "mcp", mcpErrorsAnchor),
    }),
  });

/** The conditions /mcp answers before the SDK sees a request, for its documentation. */
export const mcpConditions = [
  ...jsonRpcDoorConditions,
  "invalid_params",
  "forbidden_origin",
  "header_mismatch",
] as const satisfies ConditionName[];
