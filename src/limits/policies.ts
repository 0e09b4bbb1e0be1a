/**
 * Every quota the service enforces, by name. The name is what RateLimit-Policy and RateLimit report; the developer
 * page, the OpenAPI document and the discovery documents are generated from this table.
 */
export interface QuotaPolicy {
  /** Requests allowed per window. */
  quota: number;
  windowSeconds: number;
  /** What the quota applies to, in words. */
  appliesTo: string;
  /** Whose count a request is: what the developer page, the OpenAPI document and the server card say. */
  partition: Partition;
  /**
   * Counts what was done, not what was asked: a count is given back when the thing counted did not happen (a booking
   * Cal.com refused), so a refusal is never remembered in memory past the store's own count (LimiterOptions.cacheBlocked).
   */
  refundable?: true;
}

/**
 * Who a request is counted against. A grant (src/oauth/grants.ts) is one person's approval of a client, or a client that
 * proves itself: hosted clients' users, who share a client_id and often an egress address, are counted apart. A grant's
 * address is where the person approved it (their own browser's, src/oauth/consent-address.ts), or for a client's own
 * grant the address it calls from: the ceilings of one address count every grant of that address together.
 */
export type Partition =
  | "client IP"
  | "grant"
  | "grant, else client IP"
  | "grant of the code, else OAuth client, else client IP"
  | "grant, or client IP for the contact form"
  | "grant's address";

export const policies = {
  "public-api": {
    quota: 120,
    windowSeconds: 60,
    appliesTo: "Every request under /api, errors included, with a token or without",
    partition: "client IP",
  },
  "briefs-per-grant": {
    quota: 10,
    windowSeconds: 3600,
    appliesTo:
      "Briefs filed (not dry runs) through REST, MCP or A2A with one grant's tokens, or through the contact form from one IP address",
    partition: "grant, or client IP for the contact form",
  },
  "bookings-per-grant": {
    quota: 3,
    windowSeconds: 86_400,
    appliesTo:
      "Intro calls booked (not dry runs, not replays) through REST, MCP or A2A with one grant's tokens: a person books one call, and may move it",
    partition: "grant",
    refundable: true,
  },
  "bookings-per-address": {
    quota: 30,
    windowSeconds: 86_400,
    appliesTo:
      "Intro calls booked by the grants of one address (where each person approved their grant), every grant together: the same bound on grants farmed from one address, which never spends the ceiling of the other people whose agents call from the same address",
    partition: "grant's address",
    refundable: true,
  },
  "briefs-per-address": {
    quota: 100,
    windowSeconds: 3600,
    appliesTo:
      "Briefs filed (not dry runs) by the grants of one address (where each person approved their grant), every grant together: grants cost nothing but a consent form, so this bounds the leads one person's address can make (a brief its own grant already refuses does not count)",
    partition: "grant's address",
  },
  "contact-form": {
    quota: 20,
    windowSeconds: 3600,
    appliesTo: "Briefs sent through the contact form on the site",
    partition: "client IP",
  },
  mcp: {
    quota: 120,
    windowSeconds: 60,
    appliesTo:
      "Every request to /mcp and /mcp/server-card, errors included, and every message of a JSON-RPC batch (MCP 2025-03-26) as one: with a valid access token against its grant, otherwise (no token, or one that is refused) against the client IP",
    partition: "grant, else client IP",
  },
  a2a: {
    quota: 120,
    windowSeconds: 60,
    appliesTo:
      "Every request to the A2A agent at /a2a/v1 (both bindings), errors included: with a valid access token against its grant, otherwise against the client IP",
    partition: "grant, else client IP",
  },
  "grants-per-address": {
    quota: 3000,
    windowSeconds: 60,
    appliesTo:
      "Requests counted for a grant (with a valid access token at /mcp and /a2a/v1, identified at /oauth/token), all grants of one address (where each person approved their grant) together: a ceiling far above what one person's agents send, so that grants farmed from one address cannot buy unbounded work (a request its own grant already refuses does not count)",
    partition: "grant's address",
  },
  "a2a-briefs": {
    quota: 30,
    windowSeconds: 3600,
    appliesTo:
      "Messages to the A2A skills that store a task (the brief, svc-project-brief; booking and cancelling the intro call), valid or not, with one grant's tokens: each one stores a task",
    partition: "grant",
  },
  "a2a-briefs-per-address": {
    quota: 300,
    windowSeconds: 3600,
    appliesTo:
      "Messages to the A2A skills that store a task, by the grants of one address (where each person approved their grant) together: the same bound on grants farmed from one address (a message its own grant already refuses does not count)",
    partition: "grant's address",
  },
  "oauth-register": {
    quota: 10,
    windowSeconds: 3600,
    appliesTo: "Client registrations at POST /oauth/register (registrations never expire: this bounds their growth)",
    partition: "client IP",
  },
  "oauth-token": {
    quota: 60,
    windowSeconds: 60,
    appliesTo:
      "Requests to POST /oauth/token, errors included: a code redemption against the grant the code was approved for, client_credentials against the client once it proved itself, anything that identifies neither against the client IP",
    partition: "grant of the code, else OAuth client, else client IP",
  },
  oauth: {
    quota: 60,
    windowSeconds: 60,
    appliesTo:
      "Requests to /oauth/authorize (the consent screen and the consent form), errors included: each person's own browser sends them",
    partition: "client IP",
  },
  "oauth-client-metadata": {
    quota: 20,
    windowSeconds: 3600,
    appliesTo:
      "Client metadata documents fetched for a URL client_id at /oauth/authorize or /oauth/token; one already cached (accepted or refused) costs nothing",
    partition: "client IP",
  },
} as const satisfies Record<string, QuotaPolicy>;

export type PolicyName = keyof typeof policies;

/** A duration as the documentation says it: "one hour", "15 minutes", "24 hours", "90 seconds". */
export function inWords(seconds: number): string {
  const [count, unit] =
    seconds % 3600 === 0 ? [seconds / 3600, "hour"] : seconds % 60 === 0 ? [seconds / 60, "minute"] : [seconds, "second"];
  return count === 1 ? `one ${unit}` : `${count} ${unit}s`;
}

/** A window as the documentation says it: "per hour", "per 60 seconds". */
/** A fixed window in words: windows start at multiples of their length since the epoch, so a day's is the UTC day. */
export const perWindow = (seconds: number) =>
  seconds === 86_400
    ? "per UTC day (from 00:00 UTC)"
    : seconds === 3600
      ? "per hour"
      : seconds % 3600 === 0
        ? `per ${seconds / 3600} hours`
        : `per ${seconds} seconds`;

/** A policy as the documentation states it: `60 requests per 60 seconds per client IP (policy "oauth")`. */
export const quotaInWords = (name: PolicyName) => {
  const { quota, windowSeconds, partition } = policies[name];
  return `${quota} requests ${perWindow(windowSeconds)} per ${partition} (policy "${name}")`;
};
