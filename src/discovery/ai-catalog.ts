import { serverCardMediaType } from "../mcp/constants.ts";
import { serverInfo } from "../mcp/server.ts";
import { prebuiltResources } from "../resources/prebuilt.ts";
import type { Site } from "../site/model.ts";
import { skillPrefix } from "./skills/common.ts";
import { absolute, agentCardPath, pagePaths, serverCardPath, skillsIndexPath } from "../paths.ts";

/** The `type` of each kind of entry listed here: the AI Catalog's known types. */
export const aiCatalogEntryTypes = {
  mcpServerCard: serverCardMediaType,
  a2aAgentCard: "application/a2a-agent-card+json",
  agentSkills: "application/agent-skills+json",
} as const;

/**
 * What each entry's document is served as. Only the server card's own specification names a media type of its own;
 * the A2A agent card and the skills index are application/json, as theirs say (the skills index MUST be).
 */
export const servedAs: Record<string, string> = {
  [aiCatalogEntryTypes.mcpServerCard]: serverCardMediaType,
  [aiCatalogEntryTypes.a2aAgentCard]: "application/json",
  [aiCatalogEntryTypes.agentSkills]: "application/json",
};

interface AiCatalogEntry {
  identifier: string;
  type: string;
  url: string;
  displayName?: string;
  description?: string;
}

/**
 * /.well-known/ai-catalog.json (AI Catalog 1.0): the MCP server card, the A2A agent card and the agent skills index.
 * Identifiers are `urn:air:<host>:<namespace>:<name>`. Entries for the two cards name nothing else: a card carries its
 * own name, description and version, and a copy here could drift. The skills index has no name of its own, so its
 * entry gives one.
 */
export function aiCatalog(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const host = new URL(site.baseUrl).hostname;
  const urn = (namespace: string, name: string) => `urn:air:${host}:${namespace}:${name}`;
  const entries: AiCatalogEntry[] = [
    { identifier: urn("mcp", serverInfo(prebuiltResources(site)).name), type: aiCatalogEntryTypes.mcpServerCard, url: url(serverCardPath) },
    { identifier: urn("a2a", `${skillPrefix(site)}-agent`), type: aiCatalogEntryTypes.a2aAgentCard, url: url(agentCardPath) },
    {
      identifier: urn("skills", "index"),
      displayName: `${site.company.name} agent skills`,
      description: "One SKILL.md per protocol (REST, MCP, A2A): how to read the facts and file a brief.",
      type: aiCatalogEntryTypes.agentSkills,
      url: url(skillsIndexPath),
    },
  ];
  return {
    specVersion: "1.0",
    host: { displayName: site.company.name, identifier: host, documentationUrl: `${url(pagePaths.developers)}#discovery` },
    entries,
  };
}
