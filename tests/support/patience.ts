/**
 * How long a test waits for what it waits on (a poll's condition, an answer, a process starting or ending) before it
 * calls it a hang. The suite must pass on a loaded machine (npm test beside four other CPU-bound processes, two per
 * core), where anything can take several times as long as it does alone: so a test waits on the event itself, and a
 * bound only catches a hang. Two minutes is longer than anything here takes on such a machine (netlify dev starting
 * again takes longest). vitest.config.ts gives it to every expect.poll; tests/unit/steady.test.ts keeps waits on it.
 */
export const patience = 120_000;

/**
 * How long one test or hook may take, in every project: a few waits, each within its patience, so that a poll that
 * gives up says what it waited for before the test's own limit ends it.
 */
export const testLimit = 3 * patience;

/**
 * The deadlines of a test's dependencies (the store's, Cal.com's) where a call is meant to be answered: the patience, so
 * that a loaded machine makes a call late, never an outage. A test that means a deadline to be reached sets its own.
 */
export const patientDeadlines = { FRONTDOOR_STORE_TIMEOUT_MS: String(patience), FRONTDOOR_CAL_TIMEOUT_MS: String(patience) };
