import { policies } from "../limits/policies.ts";
import { protectedResourceMetadataUrl } from "../tokens/metadata.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { ContentError } from "../site/content-error.ts";

import { bookingOfferedIn, bookingToolNames } from "../booking/names.ts";
import { toolScopes } from "./auth-gate.ts";
import { briefToolName, briefToolScope } from "./brief-tool.ts";
import { declaredExtensions } from "./skills.ts";
import { batchRevision, maxBatchMessages, maxMcpBodyBytes } from "./constants.ts";
import { serverInfo } from "./server.ts";
import { servedProtocolVersions } from "./versions.ts";
import { absolute, mcpPath, guideUrl } from "../paths.ts";

export const serverCardSchemaUrl = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/** `kestrel.studio` -> `studio.kestrel`: SEP-2127 names are reverse-DNS; the port is dropped. */
const reverseHost = (baseUrl: string) => new URL(baseUrl).hostname.split(".").reverse().join(".");

/** SEP-2127 and the MCP Registry cap `title` and `description` at 100 characters. */
const maxTextLength = 100;
const clip = (text: string) => (text.length <= maxTextLength ? text : `${text.slice(0, maxTextLength - 1)}…`);

/**
 * The server's one-line description, the card's and the registry's: the longer wording when the studio's name leaves
 * room, else the shorter one, which fits every name company.yaml's schema admits. Clipping would publish half a word.
 */
export function serverDescription(studio: string): string {
  const wordings = [`Public facts about ${studio} and a project-brief tool, over MCP.`, `Facts about ${studio} and a project-brief tool.`];
  const fitting = wordings.find((wording) => wording.length <= maxTextLength);
  if (fitting) return fitting;
  throw new ContentError(
    "content/company.yaml",
    "name",
    `makes the MCP server's description ${wordings.at(-1)!.length} characters long; the server card and the MCP Registry allow ${maxTextLength}: shorten the name by ${wordings.at(-1)!.length - maxTextLength} characters`,
  );
}

/**
 * The MCP server card (SEP-2127 v1, the experimental server-card extension): identity and how to connect, nothing the
 * protocol lists at run time (tools, resources and prompts come from tools/list and the like). The card has no field
 * for capabilities; the MCP extensions the server declares in server/discover (Skills) are repeated under `_meta`, the
 * card's extension point, for a client deciding before it connects. Name, title, version and
 * website are the server's own `serverInfo`, so the card says what `initialize` and `server/discover` say; the
 * revisions are src/mcp/versions.ts, the list the server is to be given. The name is `<reversed host>/<serverInfo name>`. What the schema has no
 * field for (the token, limits, the documentation) goes in `_meta` under the site's own reversed host.
 */
export function serverCard(prebuilt: PrebuiltResources) {
  const base = prebuilt.site.base_url;
  const info = serverInfo(prebuilt);
  const prefix = reverseHost(base);
  const resourceMetadata = protectedResourceMetadataUrl(base, "mcp");
  const mcp = policies.mcp;
  const briefs = policies["briefs-per-grant"];
  // The tools that need a token, as this build lists them (booking only where it is offered).
  const writes = [briefToolName, ...(bookingOfferedIn(prebuilt) ? [bookingToolNames.book, bookingToolNames.cancel] : [])];
  return {
    $schema: serverCardSchemaUrl,
    name: `${prefix}/${info.name}`,
    version: info.version,
    title: clip(info.title),
    description: serverDescription(prebuilt.site.name),
    websiteUrl: info.websiteUrl,
    remotes: [
      {
        type: "streamable-http" as const,
        url: absolute(base, mcpPath),
        supportedProtocolVersions: [...servedProtocolVersions],
        // Accepted, never required: reads need no token. A client gets one by OAuth from the 401 the brief tool answers.
        headers: [
          {
            name: "Authorization",
            description:
              `Only the writes need it (${writes.join(", ")}): a bearer access token with the scope ${briefToolScope}. Reads need none. ` +
              `MCP clients get one by OAuth when a write answers 401 (protected resource metadata: ${resourceMetadata}).`,
            isRequired: false,
            isSecret: true,
            value: "Bearer {token}",
            variables: {
              token: { description: "An access token from this site's authorization server.", isRequired: false, isSecret: true },
            },
          },
        ],
      },
    ],
    _meta: {
      [`${prefix}/authorization`]: {
        required: false,
        protected_resource_metadata: resourceMetadata,
        scopes: Object.fromEntries(writes.map((tool) => [tool, [toolScopes[tool]]])),
      },
      [`${prefix}/extensions`]: declaredExtensions,
      [`${prefix}/limits`]: {
        quota: { policy: "mcp", requests: mcp.quota, window_seconds: mcp.windowSeconds, per: mcp.partition },
        max_body_bytes: maxMcpBodyBytes,
        // JSON-RPC batches: only from 2025-03-26 clients, each message counted against the quota.
        batches: { protocol_version: batchRevision, max_messages: maxBatchMessages, each_message_counts: true },
        briefs: { policy: "briefs-per-grant", requests: briefs.quota, window_seconds: briefs.windowSeconds, per: briefs.partition },
      },
      [`${prefix}/documentation`]: guideUrl(base, "mcp"),
    },
  };
}
