import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { briefSchema } from "../briefs/schema.ts";
import { policies } from "../limits/policies.ts";
import { briefTool, briefToolName, briefToolScope } from "../mcp/brief-tool.ts";
import { conditionOf } from "../http/conditions.ts";
import { mcpConditions, mcpErrorsAnchor } from "../mcp/errors.ts";
import { maxMcpBodyBytes } from "../mcp/constants.ts";
import { promptDefinitions } from "../mcp/prompts.ts";
import { readTools } from "../mcp/read-tools.ts";
import { resourceDefinitions } from "../mcp/resources.ts";

import { prebuiltResources, siteSizeIds } from "../resources/prebuilt.ts";
import type { Site } from "./model.ts";
import { mcpPath, serverCardPath, serverCardWellKnownPath, protectedResourceMetadataPath, absolute } from "../paths.ts";

/** The developer page's MCP section, from the same definitions the server registers. */
export function mcpGuide(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const prebuilt = prebuiltResources(site);
  const filing = {
    schema: briefSchema(siteSizeIds(prebuilt)),
    studio: prebuilt.site.name,
    responseTime: prebuilt.site.response_time,
    file: () => Promise.reject(new Error("documentation only")),
  };
  const quota = policies.mcp;
  const endpoint = url(mcpPath);
  const [latest, ...older] = SUPPORTED_PROTOCOL_VERSIONS;
  return {
    endpoint,
    errorsAnchor: mcpErrorsAnchor,
    intro: `The same facts, and the brief, for MCP clients (Claude, ChatGPT, IDE agents and the like). Give your client the endpoint ${endpoint}; nothing else is needed. Reads need no token; filing a brief leads the client through OAuth.`,
    transport: `Streamable HTTP, stateless: every request is a POST of one JSON-RPC message, answered as JSON, or as an event stream when the client's Accept prefers text/event-stream. No session id is issued, and GET and DELETE answer 405 (there is no standalone stream). Protocol ${latest}, with ${older.join(", ")} negotiated for older clients; the MCP-Protocol-Version header is honoured. Browsers may call it only from this site's origin (DNS-rebinding protection); clients that send no Origin header are served.`,
    initializeExample: `curl ${endpoint} \\\n  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'`,
    tools: [...readTools(prebuilt), briefTool(filing)].map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      access: t.name === briefToolName ? `token with ${briefToolScope}` : "no token",
    })),
    resources: resourceDefinitions(prebuilt).map((r) => ({ uri: r.uri, title: r.title, description: r.description })),
    prompts: promptDefinitions(prebuilt).map((p) => ({
      name: p.name,
      description: p.description,
      arguments: Object.keys(p.arguments).join(", ") || "none",
    })),
    auth: `Reads need no token. A call of ${briefToolName} without a token is answered with HTTP 401 and WWW-Authenticate: Bearer scope="${briefToolScope}", resource_metadata="${url(protectedResourceMetadataPath("mcp"))}", which makes a standard MCP client discover this site's authorization server and get a token (see OAuth above; ask for resource=${endpoint}). A token without ${briefToolScope} gets 403 insufficient_scope with scope="${briefToolScope}" (step up: ask for a new token with that scope). Any request that presents a token which fails verification gets 401. Tokens issued for /mcp, /a2a/v1 or the origin are all accepted.`,
    filing: `${briefToolName} takes the brief's fields (full_name, company_name and work_email required) plus dry_run, and an optional idempotency_key that makes retries safe. Invalid fields come back as a tool result with isError true that names each field, so the model can fix them and call again. A dry run is validated like a real brief and says that nothing was filed.`,
    limits: `Every response from /mcp and /mcp/server-card counts against the quota "mcp": ${quota.quota} requests per ${quota.windowSeconds} seconds per client IP, reported with the same RateLimit headers as /api. Past it, HTTP 429 with Retry-After and a JSON-RPC error. Request bodies are limited to ${maxMcpBodyBytes / 1024} KB (HTTP 413). Filed briefs also count against briefs-per-client (see Quota).`,
    card: `The server card (the MCP server card proposal, SEP-2127) describes the endpoint, its tools, resources, prompts, authentication and limits; it is generated from the server's own listing at build time. It is served at ${url(serverCardPath)} (application/mcp-server-card+json) and ${url(serverCardWellKnownPath)}.`,
    cardUrl: url(serverCardPath),
    errors: mcpConditions.map((name) => {
      const c = conditionOf(name);
      return { code: c.problem ?? name, status: c.status, rpc: c.rpc!, meaning: `${c.title}: ${c.when}` };
    }),
    errorsIntro:
      "Errors of the HTTP layer are JSON-RPC error objects (never problem+json) with data.code, the same stable code the REST API uses where one exists. Protocol errors are the standard JSON-RPC codes: -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params or unknown tool. A tool that runs but cannot do what was asked answers a result with isError true.",
  };
}
