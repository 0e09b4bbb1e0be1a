import { Redis } from "@upstash/redis";
import { inject } from "vitest";

/**
 * Runs before each runtime test file (vitest setupFiles). netlify dev gives every client the address 127.0.0.1 and the
 * files share one runtime and store, so each file starts with no per-address quota counted, like a new client address:
 * a file's registrations, tokens, consents and e-mailed leads (the address's share of the day's e-mail) never count
 * against the next file's.
 */
const { url, token } = inject("store");
const store = new Redis({ url, token, enableTelemetry: false });
const counters = await store.keys("rl:*");
if (counters.length > 0) await store.del(...counters);
for (const sources of await store.keys("leads:emailed:*:sources")) await store.hdel(sources, "address:127.0.0.1");
