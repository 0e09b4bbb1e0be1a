import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

/**
 * The MCP revisions /mcp serves, newest first, for the server card, the developer page and the skills. The 2026 era
 * (stateless, `server/discover`, the `_meta` envelope on every request) is chosen by `server/discover`, which lists it;
 * the 2025 era by the `initialize` handshake, where the list is the SDK's own, so it is what its server accepts.
 */
export const modernProtocolVersions: readonly string[] = ["2026-07-28"];
export const legacyProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
export const servedProtocolVersions: readonly string[] = [...modernProtocolVersions, ...legacyProtocolVersions];
