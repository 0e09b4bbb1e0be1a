import type { QuotaResult } from "./limiter.ts";
import { policies, type PolicyName } from "./policies.ts";

/** `"public-api";q=120;w=60` (draft-ietf-httpapi-ratelimit-headers). */
export const policyField = (name: PolicyName) => `"${name}";q=${policies[name].quota};w=${policies[name].windowSeconds}`;

/**
 * The quota as every response reports it: RateLimit-Policy and RateLimit (the current draft), and the older
 * RateLimit-Limit/-Remaining/-Reset with the same values; Retry-After when the request was refused.
 */
export function quotaHeaders(result: QuotaResult): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Policy": policyField(result.policy),
    RateLimit: `"${result.policy}";r=${result.remaining};t=${result.resetSeconds}`,
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(result.resetSeconds),
  };
  // Retry-After is never earlier than t, and at least one second.
  if (!result.allowed) headers["Retry-After"] = String(Math.max(1, result.resetSeconds));
  return headers;
}

/** The headers for what one request counted: the lists name every policy, the single-valued fields the one that decides. */
export function quotaReport(results: QuotaResult[]): Record<string, string> {
  const decisive = results.find((r) => !r.allowed) ?? results[0]!;
  const reported = quotaHeaders(decisive);
  for (const name of ["RateLimit-Policy", "RateLimit"]) reported[name] = results.map((r) => quotaHeaders(r)[name]).join(", ");
  return reported;
}
