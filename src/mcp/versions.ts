import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

/**
 * The MCP revisions /mcp serves, newest first, for the server card and whatever else announces them. 2026-07-28 and
 * later are chosen by `server/discover` (which lists them); the 2025 era by `initialize`, where the list is the SDK's
 * own, so it is what its server accepts. The server should be given this same list (`supportedProtocolVersions`).
 */
export const modernProtocolVersions: readonly string[] = ["2026-07-28"];
export const legacyProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
export const servedProtocolVersions: readonly string[] = [...modernProtocolVersions, ...legacyProtocolVersions];
