/** What the MCP surface announces beyond its paths (the developer page, the card and the handler share them). */
export const serverCardMediaType = "application/mcp-server-card+json";
/** The largest request body accepted, in bytes: a brief is at most about 6 KB of JSON. */
export const maxMcpBodyBytes = 64 * 1024;
