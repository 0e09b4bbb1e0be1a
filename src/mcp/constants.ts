/** What the MCP surface announces beyond its paths (the developer page, the card and the handler share them). */
export const serverCardMediaType = "application/mcp-server-card+json";
/** The largest request body accepted, in bytes: a brief is at most about 6 KB of JSON. */
export const maxMcpBodyBytes = 64 * 1024;

/**
 * The one MCP revision with JSON-RPC batches: 2025-03-26 added them and 2025-06-18 removed them, so neither the later
 * 2025 revisions nor 2026-07-28 (nor 2024-11-05, before them) have any. A request without `MCP-Protocol-Version` speaks
 * it: the transport says a server that cannot tell otherwise assumes 2025-03-26.
 */
export const batchRevision = "2025-03-26";

/**
 * The most messages a JSON-RPC batch may carry (MCP 2025-03-26, the only revision with batches). Each message counts
 * against the `mcp` quota, so a batch is a sixth of its window at most: room for the lists and every read tool and
 * resource of today's content (18 messages), never a minute's budget in one POST. Below the SDK's own ceiling (100),
 * which it would answer in its own words.
 */
export const maxBatchMessages = 20;

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
