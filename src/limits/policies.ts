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
  /** What it is counted by. */
  partition: "client IP" | "OAuth client";
}

export const policies = {
  "public-api": {
    quota: 120,
    windowSeconds: 60,
    appliesTo: "Every request under /api, errors included",
    partition: "client IP",
  },
  "briefs-per-client": {
    quota: 10,
    windowSeconds: 3600,
    appliesTo: "Briefs filed (not dry runs) by one OAuth client, or through the contact form from one IP address",
    partition: "OAuth client",
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
    appliesTo: "Every request to /mcp and /mcp/server-card, errors included",
    partition: "client IP",
  },
  a2a: {
    quota: 120,
    windowSeconds: 60,
    appliesTo: "Every request to the A2A agent at /a2a/v1, errors included",
    partition: "client IP",
  },
  "a2a-briefs": {
    quota: 30,
    windowSeconds: 3600,
    appliesTo:
      "Messages to the A2A brief skill (svc-project-brief), valid or not: each one stores a task. Clients identified by a metadata document share one count per host",
    partition: "OAuth client",
  },
  "oauth-register": {
    quota: 10,
    windowSeconds: 3600,
    appliesTo: "Client registrations at POST /oauth/register (registrations never expire: this bounds their growth)",
    partition: "client IP",
  },
  oauth: {
    quota: 60,
    windowSeconds: 60,
    appliesTo: "Requests to POST /oauth/token and to /oauth/authorize (the consent screen and the consent form), errors included",
    partition: "client IP",
  },
  "oauth-client-metadata": {
    quota: 20,
    windowSeconds: 3600,
    appliesTo:
      "Client metadata documents fetched for a URL client_id at /oauth/authorize; one already cached (accepted or refused) costs nothing",
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
export const perWindow = (seconds: number) =>
  seconds === 3600 ? "per hour" : seconds % 3600 === 0 ? `per ${seconds / 3600} hours` : `per ${seconds} seconds`;
