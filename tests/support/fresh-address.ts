import { Redis } from "@upstash/redis";
import { inject } from "vitest";

/**
 * Runs before each runtime test file (vitest setupFiles). The files call from 127.0.0.1 (npm start hands a function its
 * client's address, and netlify dev gives every edge function 127.0.0.1), so every grant they approve is approved from
 * there too, and they share one runtime and store: each file starts with no per-address quota counted, like a new address:
 * a file's registrations, tokens, consents and e-mailed leads (the address's share of the day's e-mail) never count
 * against the next file's.
 */
const { url, token } = inject("store");
const store = new Redis({ url, token, enableTelemetry: false });
const counters = await store.keys("rl:*");
if (counters.length > 0) await store.del(...counters);
for (const sources of await store.keys("leads:emailed:*:sources")) {
  const addresses = Object.keys((await store.hgetall(sources)) ?? {}).filter((field) => field.startsWith("address:"));
  if (addresses.length > 0) await store.hdel(sources, ...addresses);
}
