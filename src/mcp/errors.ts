import { conditionOf, type ConditionName } from "../http/conditions.ts";
import { jsonRpc } from "../http/formats.ts";
import { absolute, pagePaths } from "../paths.ts";

export const mcpErrorsAnchor = "mcp-errors";

/**
 * /mcp's refusals as JSON-RPC errors (MCP clients read JSON-RPC, not problem+json), with the number and status of the
 * conditions table. `data.code` is the stable code the REST API uses for the same condition, where it has one.
 */
export const mcpErrors = (baseUrl: string) =>
  jsonRpc({
    data: (name: ConditionName) => ({
      code: conditionOf(name).problem ?? name,
      documentation_url: `${absolute(baseUrl, pagePaths.developers)}#${mcpErrorsAnchor}`,
    }),
  });

/** The conditions /mcp answers before the SDK sees a request, for its documentation. */
export const mcpConditions = [
  "invalid_json",
  "invalid_request",
  "unsupported_media_type",
  "method_not_allowed",
  "forbidden_origin",
  "payload_too_large",
  "invalid_token",
  "insufficient_scope",
  "rate_limited",
  "service_unavailable",
] as const satisfies ConditionName[];
