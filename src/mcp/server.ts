import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { jsonBody } from "../resources/json.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { briefTool, briefToolName, briefToolScope, type BriefFiling } from "./brief-tool.ts";
import { promptDefinitions, type PromptDefinition } from "./prompts.ts";
import { readTools } from "./read-tools.ts";
import { resourceDefinitions, type ResourceDefinition } from "./resources.ts";
import type { Caller, Tool, ToolDefinition } from "./tool.ts";

export const serverVersion = "1.0.0";

/** Every tool, read tools first; the order is stable (2026-07-28 asks for deterministic lists). */
export const mcpTools = (prebuilt: PrebuiltResources, filing: BriefFiling): Tool[] => [...readTools(prebuilt), briefTool(filing)];

export const toolDefinition = ({ name, title, description, inputSchema, outputSchema, annotations }: ToolDefinition): ToolDefinition => ({
  name,
  title,
  description,
  inputSchema,
  outputSchema,
  annotations,
});

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "studio";

export const serverInfo = (prebuilt: PrebuiltResources) => ({
  name: `${slug(prebuilt.site.name)}-facts`,
  title: `${prebuilt.site.name} facts`,
  version: serverVersion,
  websiteUrl: prebuilt.site.base_url,
});

export const serverInstructions = (prebuilt: PrebuiltResources) =>
  `Public facts about ${prebuilt.site.name}, a web-development studio: company, offers (USD), case studies, pages, contact. ` +
  `Every read tool and resource needs no token. ${briefToolName} files a real lead that a person answers by e-mail: call it only ` +
  `when the person asked to be contacted and confirmed their name, company and work e-mail; it needs a token with ${briefToolScope}.`;

const callerOf = (auth: AuthInfo | undefined): Caller | undefined =>
  auth ? { clientId: auth.clientId, scopes: auth.scopes, waitUntil: auth.extra?.waitUntil as Caller["waitUntil"] } : undefined;

/**
 * What a server is made of. None of it changes during a deploy, so the handler builds it once (each resource's JSON
 * text, the tools/list answer, the SDK's JSON Schema validator, which compiles its rules when made) and then a server
 * per request from it.
 */
export interface McpServerParts {
  prebuilt: PrebuiltResources;
  resources: (ResourceDefinition & { text: string })[];
  prompts: PromptDefinition[];
  tools: Map<string, Tool>;
  listed: ToolDefinition[];
  validator: AjvJsonSchemaValidator;
}

export const mcpServerParts = (prebuilt: PrebuiltResources, tools: Tool[]): McpServerParts => ({
  prebuilt,
  resources: resourceDefinitions(prebuilt).map((r) => ({ ...r, text: jsonBody(r.value) })),
  prompts: promptDefinitions(prebuilt),
  tools: new Map(tools.map((t) => [t.name, t])),
  listed: tools.map(toolDefinition),
  validator: new AjvJsonSchemaValidator(),
});

/**
 * The MCP server for one request (the transport is stateless, so nothing outlives the request). Resources and prompts
 * go through the SDK's registries; tools are served from our own table, because the brief tool validates with the
 * brief pipeline (every offending field named in one isError result) rather than the SDK's generic argument check.
 */
export function mcpServerFrom({ prebuilt, resources, prompts, tools, listed, validator }: McpServerParts): McpServer {
  const server = new McpServer(serverInfo(prebuilt), {
    capabilities: { logging: {} },
    instructions: serverInstructions(prebuilt),
    jsonSchemaValidator: validator,
  });

  for (const r of resources) {
    const contents = [{ uri: r.uri, mimeType: r.mimeType, text: r.text }];
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType }, async () => ({
      contents,
    }));
  }

  for (const p of prompts) {
    const messages = (args: Record<string, string | undefined>) => ({
      description: p.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: p.text(args) } }],
    });
    if (Object.keys(p.arguments).length === 0)
      server.registerPrompt(p.name, { title: p.title, description: p.description }, () => messages({}));
    else server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: p.arguments }, (args) => messages(args));
  }

  // Every list is fixed for the life of a deploy.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}; tools/list names: ${[...tools.keys()].join(", ")}.`,
      );
    }
    return tool.run(request.params.arguments ?? {}, callerOf(extra.authInfo));
  });
  return server;
}

/** A server built from nothing: the build's listing for the server card, and the bench's bare SDK baseline. */
export const createMcpServer = (prebuilt: PrebuiltResources, tools: Tool[]): McpServer => mcpServerFrom(mcpServerParts(prebuilt, tools));
