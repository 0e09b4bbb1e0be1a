/** Where the agent lives and what it serves; kept apart from card.ts so the API index can name them without the SDK. */
export const a2aPath = "/a2a/v1";
export const agentCardPath = "/.well-known/agent-card.json";
/** The versions served at /a2a/v1, preferred first; 0.3 through the SDK's compatibility layer. */
export const protocolVersions = ["1.0", "0.3"] as const;
/** The largest request body accepted at /a2a/v1, in bytes. */
export const maxA2ABodyBytes = 64 * 1024;
