/** What the agent serves, beyond its paths; kept apart from card.ts so the API index can name it without the SDK. */
/** The versions served at /a2a/v1, preferred first; 0.3 through the SDK's compatibility layer. */
export const protocolVersions = ["1.0", "0.3"] as const;
/**
 * The longest id a request may name (a message's, a context's, a task's, each it refers to) and the most ids in one of
 * its lists: a task stores its ids, and answers repeat them.
 */
export const maxIdLength = 256;
export const maxListedIds = 16;
/** The largest request body accepted at /a2a/v1, in bytes. */
export const maxA2ABodyBytes = 64 * 1024;
/** Tasks are kept this long after their last change, then expire. */
export const taskLifetimeSeconds = 24 * 3600;
/** The most history a stored task keeps, newest messages first, in bytes of JSON. */
export const maxStoredHistoryBytes = 4 * 1024;
/**
 * The most tasks ListTasks can show a client (its newest): above what the a2a-briefs quota lets one client make in a
 * task's lifetime, so it bounds storage without hiding a live task (a unit test checks the arithmetic).
 */
export const maxIndexedTasks = 1000;
/** ListTasks page sizes: the SDK's request handler applies the default and refuses sizes outside 1..max. */
export const listPageSize = { default: 50, max: 100 } as const;
