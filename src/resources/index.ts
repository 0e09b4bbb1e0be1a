import { z } from "zod";

import { protectedResourceMetadataUrl } from "../tokens/metadata.ts";

import { indexedResources, operationPointer } from "./operations.ts";
import type { Site } from "../site/model.ts";
import { sampleContentSchema } from "./common.ts";
import { protocolVersions } from "../a2a/constants.ts";
import {
  absolute,
  pagePaths,
  openApiPath,
  apiCatalogPath,
  aiCatalogPath,
  skillsIndexPath,
  oauthPaths,
  mcpPath,
  serverCardPath,
  a2aPath,
  a2aRestPath,
  agentCardPath,
  llmsPath,
  guideUrl,
} from "../paths.ts";

export const apiIndexSchema = z
  .object({
    name: z.string().describe("Name of the API."),
    version: z.literal("v1").describe("The major version, also in the path."),
    description: z.string().describe("What the API offers."),
    sample_content: sampleContentSchema,
    resources: z
      .array(
        z.object({
          id: z.string().describe("Resource id."),
          url: z.url().describe("The resource's URL."),
          methods: z.array(z.string()).describe("HTTP methods the resource's own URL supports."),
          description: z.string().describe("What it holds, or what it does."),
          operations: z
            .array(
              z.object({
                method: z.enum(["GET", "POST"]).describe("The HTTP method."),
                url: z.string().describe("Where: the resource's URL, or a URL template below it ({id} from an earlier answer)."),
                operation_id: z.string().describe("The operation's operationId in the OpenAPI document."),
                openapi_url: z.url().describe("The operation in the OpenAPI document: its URL with a JSON Pointer (RFC 6901) fragment."),
                scopes: z
                  .array(z.string())
                  .describe("OAuth scopes the access token must carry (Authorization: Bearer); empty when no token is needed."),
              }),
            )
            .describe("One entry per operation: its method, URL, OpenAPI operation and the scopes it needs."),
        }),
      )
      .describe("Every resource of the API."),
    documentation_url: z.url().describe("The developer guide's index."),
    openapi_url: z.url().describe("The OpenAPI 3.1 description of this API."),
    discovery: z
      .object({
        api_catalog_url: z.url().describe("RFC 9727 API catalog of every API here."),
        ai_catalog_url: z.url().describe("AI Catalog of the agent surfaces: the MCP server card, the A2A agent card, the agent skills."),
        agent_skills_url: z.url().describe("Agent Skills Discovery index: one SKILL.md per protocol."),
        oauth_authorization_server_url: z.url().describe("RFC 8414 authorization server metadata (registration, tokens)."),
        oauth_protected_resource_urls: z.array(z.url()).describe("RFC 9728 metadata of the origin, /mcp and /a2a/v1."),
        jwks_url: z.url().describe("The keys that sign access tokens and the agent card."),
        llms_txt_url: z.url().describe("The site for language models, as Markdown links."),
      })
      .describe("Where an agent finds everything else."),
    mcp: z
      .object({
        url: z.url().describe("The MCP endpoint (Streamable HTTP, stateless): the same facts, and the brief as a tool."),
        transport: z.literal("streamable-http").describe("The MCP transport."),
        server_card_url: z.url().describe("The MCP server card (SEP-2127): identity, endpoint and protocol revisions."),
        documentation_url: z.url().describe("The MCP page of the developer guide."),
      })
      .describe("The MCP server that publishes the same facts."),
    a2a: z
      .object({
        agent_card_url: z.url().describe("The A2A agent card."),
        url: z.url().describe("The A2A agent's JSON-RPC endpoint."),
        protocol_versions: z.array(z.string()).describe("A2A protocol versions served there (A2A-Version header)."),
        rest_url: z.url().describe("The same agent's HTTP+JSON (REST) binding, A2A 1.0 only: POST <rest_url>/message:send."),
      })
      .describe("The same facts and the brief for A2A agents."),
  })
  .describe("Index of every resource of the API.");

export function apiIndex(site: Site): z.infer<typeof apiIndexSchema> {
  return {
    name: `${site.company.name} public API`,
    version: "v1",
    description: `Public facts about ${site.company.name}. Reads need no key and no account; filing a project brief needs an access token, self-serve and anonymous.`,
    sample_content: site.company.sample_content,
    resources: indexedResources.map(({ id, description, operations }) => ({
      id,
      url: absolute(site.baseUrl, operations[0]!.path),
      methods: [...new Set(operations.filter((o) => o.path === operations[0]!.path).map((o) => o.method))],
      description,
      operations: operations.map((o) => ({
        method: o.method,
        url: absolute(site.baseUrl, o.path),
        operation_id: o.operationId,
        openapi_url: `${absolute(site.baseUrl, openApiPath)}${operationPointer(o)}`,
        scopes: [...o.scopes],
      })),
    })),
    documentation_url: absolute(site.baseUrl, pagePaths.developers),
    openapi_url: absolute(site.baseUrl, openApiPath),
    discovery: {
      api_catalog_url: absolute(site.baseUrl, apiCatalogPath),
      ai_catalog_url: absolute(site.baseUrl, aiCatalogPath),
      agent_skills_url: absolute(site.baseUrl, skillsIndexPath),
      oauth_authorization_server_url: absolute(site.baseUrl, oauthPaths.authorizationServerMetadata),
      oauth_protected_resource_urls: (["origin", "mcp", "a2a"] as const).map((r) => protectedResourceMetadataUrl(site.baseUrl, r)),
      jwks_url: absolute(site.baseUrl, oauthPaths.jwks),
      llms_txt_url: absolute(site.baseUrl, llmsPath),
    },
    mcp: {
      url: absolute(site.baseUrl, mcpPath),
      transport: "streamable-http",
      server_card_url: absolute(site.baseUrl, serverCardPath),
      documentation_url: guideUrl(site.baseUrl, "mcp"),
    },
    a2a: {
      agent_card_url: absolute(site.baseUrl, agentCardPath),
      url: absolute(site.baseUrl, a2aPath),
      protocol_versions: [...protocolVersions],
      rest_url: absolute(site.baseUrl, a2aRestPath),
    },
  };
}
