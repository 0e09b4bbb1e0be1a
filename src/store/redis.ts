import { Redis } from "@upstash/redis";
import type { Configuration } from "../config/settings.ts";

/**
 * How long one Upstash command may take, its one retry included, before it counts as an outage. Upstash answers in
 * milliseconds; a handler that waited longer would hold a function (and the client) until the platform kills it.
 */
export const storeTimeoutMs = 1500;

/**
 * What npm start sets (FRONTDOOR_STORE_TIMEOUT_MS) for its local store, which writes every change to disk before it
 * answers: a test burst on a busy laptop can take seconds, and that is not an outage worth serving without the quota.
 */
export const localStoreTimeoutMs = 10_000;

/**
 * Where production state lives (quotas, leads, tasks, OAuth clients) and how long a command may take. Locally
 * `npm start` points the same variables at the local store, so there is one code path; without them nothing can run.
 */
export function storeSettings(settings: Configuration) {
  const url = settings.required("UPSTASH_REDIS_REST_URL");
  const token = settings.required("UPSTASH_REDIS_REST_TOKEN");
  const timeoutMs = settings.get("FRONTDOOR_STORE_TIMEOUT_MS") ?? storeTimeoutMs;
  return { url, token, timeoutMs, retries: 1, backoffMs: 50 };
}

/**
 * The Upstash client with its own `fetch` transport, for the edge (Deno, where fetch is native). The functions use
 * `redisFromEnv` (node-requester.ts) instead.
 */
export function edgeRedisFromEnv(settings: Configuration): Redis {
  const { url, token, timeoutMs, retries, backoffMs } = storeSettings(settings);
  return new Redis({
    url,
    token,
    enableTelemetry: false,
    retry: { retries, backoff: () => backoffMs },
    // A function, so each request gets a fresh deadline and an expired one throws (a plain signal would be read as
    // a successful "Aborted" result by the client).
    signal: () => AbortSignal.timeout(timeoutMs),
  });
}

/** The store could not be reached in time (no connection, or no answer), as opposed to answering with an error. */
export const isStoreOutage = (error: unknown): boolean =>
  error instanceof TypeError || (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError"));
