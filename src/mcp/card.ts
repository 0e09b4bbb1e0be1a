import { Client, InMemoryTransport, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/client";
import { briefSchema } from "../briefs/schema.ts";
import { policies } from "../limits/policies.ts";
import { protectedResourceMetadataUrl, scopes } from "../oauth/metadata.ts";
import { siteSizeIds, type PrebuiltResources } from "../resources/prebuilt.ts";

import { briefToolName, briefToolScope } from "./brief-tool.ts";
import { maxMcpBodyBytes } from "./constants.ts";
import { createMcpServer, mcpTools, serverInfo, serverVersion } from "./server.ts";
import { absolute, pagePaths, mcpPath } from "../paths.ts";

export const serverCardSchemaUrl = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/** `kestrel.studio` -> `studio.kestrel`: SEP-2127 names are reverse-DNS; the port is dropped. */
const reverseHost = (baseUrl: string) => new URL(baseUrl).hostname.split(".").reverse().join(".");

/**
 * What the server itself answers to tools/list, resources/list and prompts/list, asked in-process at build time, so
 * the card cannot drift from the server: it is the server's own listing.
 */
export async function liveListing(prebuilt: PrebuiltResources) {
  const filing = {
    schema: briefSchema(siteSizeIds(prebuilt)),
    studio: prebuilt.site.name,
    responseTime: prebuilt.site.response_time,
    file: () => Promise.reject(new Error("listing only")),
  };
  const server = createMcpServer(prebuilt, mcpTools(prebuilt, filing));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "frontdoor-build", version: serverVersion });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const [{ tools }, { resources }, { prompts }] = await Promise.all([client.listTools(), client.listResources(), client.listPrompts()]);
    return { tools, resources, prompts, capabilities: client.getServerCapabilities() ?? {}, instructions: client.getInstructions() };
  } finally {
    await client.close();
    await server.close();
  }
}

/**
 * The MCP server card (SEP-2127 v1, an experimental extension): its required fields, `remotes`, and beside them the
 * keys earlier scanners read (serverInfo, transport, capabilities, authentication, tools, resources, prompts); v1
 * objects are open. Limits go in `_meta` under the site's own reverse-DNS prefix.
 */
export async function serverCard(prebuilt: PrebuiltResources) {
  const base = prebuilt.site.base_url;
  const url = absolute(base, mcpPath);
  const listing = await liveListing(prebuilt);
  const info = serverInfo(prebuilt);
  const prefix = reverseHost(base);
  const description = `Public facts about ${prebuilt.site.name} and a project-brief tool, over MCP.`;
  const mcp = policies.mcp;
  const briefs = policies["briefs-per-client"];
  return {
    $schema: serverCardSchemaUrl,
    name: `${prefix}/facts`,
    version: serverVersion,
    title: info.title.slice(0, 100),
    description: description.length <= 100 ? description : `${description.slice(0, 99)}…`,
    websiteUrl: base,
    remotes: [{ type: "streamable-http", url, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
    serverInfo: { name: info.name, title: info.title, version: info.version },
    transport: { type: "streamable-http", url },
    capabilities: listing.capabilities,
    instructions: listing.instructions,
    authentication: {
      required: false,
      schemes: ["oauth2"],
      protectedResourceMetadata: protectedResourceMetadataUrl(base, "mcp"),
      description: `Reads need no token. ${briefToolName} needs an access token with ${briefToolScope} (${scopes[briefToolScope]}).`,
    },
    tools: listing.tools,
    resources: listing.resources,
    prompts: listing.prompts,
    _meta: {
      [`${prefix}/limits`]: {
        quota: { policy: "mcp", requests: mcp.quota, window_seconds: mcp.windowSeconds, per: mcp.partition },
        max_body_bytes: maxMcpBodyBytes,
        briefs: { policy: "briefs-per-client", requests: briefs.quota, window_seconds: briefs.windowSeconds, per: briefs.partition },
      },
      [`${prefix}/documentation`]: `${absolute(base, pagePaths.developers)}#mcp`,
    },
  };
}
