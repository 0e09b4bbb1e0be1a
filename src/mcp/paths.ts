/** Where the MCP surface lives and the limits it announces (the developer page, the card and the handler share them). */
export const mcpPath = "/mcp";
/** SEP-2127's reserved location beside the endpoint; the same card is also a static file at the well-known path. */
export const serverCardPath = "/mcp/server-card";
export const serverCardWellKnownPath = "/.well-known/mcp/server-card.json";
export const serverCardMediaType = "application/mcp-server-card+json";
/** The largest request body accepted, in bytes: a brief is at most about 6 KB of JSON. */
export const maxMcpBodyBytes = 64 * 1024;
