import type { serverCard } from "./card.ts";

/** The version of the MCP Registry's server.json format this build writes (tests/schemas/mcp-registry/ holds a copy). */
export const serverJsonSchemaUrl = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

type ServerCard = ReturnType<typeof serverCard>;

/**
 * server.json, what `mcp-publisher publish` sends to the MCP Registry, from the server card so the two never disagree:
 * the card's name (or the operator's MCP_REGISTRY_NAME), description, title, version and website, and the one remote
 * with its transport and optional Authorization header. The card's `_meta` stays out: the official registry keeps only
 * its own publisher-provided key.
 */
export function registryServerJson(card: ServerCard, name: string = card.name) {
  return {
    $schema: serverJsonSchemaUrl,
    name,
    description: card.description,
    title: card.title,
    version: card.version,
    websiteUrl: card.websiteUrl,
    remotes: card.remotes.map(({ type, url, headers }) => ({ type, url, headers })),
  };
}

/**
 * The body of /.well-known/mcp-registry-auth, which the registry's HTTP login fetches to prove the domain: one line,
 * the key as MCP_REGISTRY_AUTH_PUBLIC_KEY gives it (checked there to be 32 bytes of base64).
 */
export const registryAuthBody = (publicKey: string) => `v=MCPv1; k=ed25519; p=${publicKey}`;

export const registryAuthContentType = "text/plain; charset=utf-8";
