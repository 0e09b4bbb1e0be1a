/** What the MCP surface announces beyond its paths (the developer page, the card and the handler share them). */
export const serverCardMediaType = "application/mcp-server-card+json";
/** The largest request body accepted, in bytes: a brief is at most about 6 KB of JSON. */
export const maxMcpBodyBytes = 64 * 1024;

/**
 * How long a 2026-07-28 client may keep what it read (SEP-2549 `ttlMs`), in seconds. Nothing here changes between
 * deploys and nothing depends on the caller, so every hint is `public`. The lists (and `server/discover`) keep an hour,
 * as the server card that repeats them does; a resource's JSON keeps a minute, as the same JSON under /api does.
 */
export const listTtlSeconds = 3600;
export const resourceTtlSeconds = 60;

/**
 * How long a confirmation form may stay open: the `requestState` handed out with it is refused after this. Long enough
 * for a person to read three fields and correct one, short enough that a state that leaked is soon worthless.
 */
export const requestStateTtlSeconds = 10 * 60;
