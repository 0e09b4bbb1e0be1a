import { policyField, quotaHeaders } from "../limits/headers.ts";
import type { Limiter, QuotaResult } from "../limits/limiter.ts";
import { perWindow, policies, type PolicyName } from "../limits/policies.ts";

/** A quota refused part of a request; the endpoint answers 429 in its own format (JSON, or the consent error page). */
export class QuotaExceeded extends Error {
  override name = "QuotaExceeded";
  readonly result: QuotaResult;
  constructor(result: QuotaResult) {
    super(`quota ${result.policy} exhausted`);
    this.result = result;
  }
}

/** The one error code for a refused quota at every OAuth endpoint, as under /api, /mcp and /a2a/v1. */
export const rateLimitedError = "rate_limited";

export const rateLimitedDescription = ({ policy, limit, resetSeconds }: QuotaResult) =>
  `This client IP has used its quota "${policy}" (${limit} ${perWindow(policies[policy].windowSeconds)}); retry after ${Math.max(1, resetSeconds)} seconds.`;

/**
 * The quotas one OAuth request counts against, for its client IP: the endpoint's own policy and, when a client
 * metadata document has to be fetched, `oauth-client-metadata`. A store outage is not caught here: the endpoints
 * need the store anyway, so it ends as 503 temporarily_unavailable (from-env.ts).
 */
export class RequestQuota {
  readonly #limiter: Limiter;
  readonly #ip: string;
  readonly #retry: boolean;
  readonly #results: QuotaResult[] = [];

  /** `retry`: netlify dev calling again after a 403 or 404 it already got; report the quota, never count it twice. */
  constructor(limiter: Limiter, ip: string, retry = false) {
    this.#limiter = limiter;
    this.#ip = ip;
    this.#retry = retry;
  }

  /** Counts this request against the policy; throws QuotaExceeded past its limit. */
  async count(policy: PolicyName): Promise<QuotaResult> {
    const result = this.#retry
      ? { ...(await this.#limiter.peek(policy, this.#ip)), allowed: true }
      : await this.#limiter.consume(policy, this.#ip);
    this.#results.push(result);
    if (!result.allowed) throw new QuotaExceeded(result);
    return result;
  }

  /**
   * Every policy counted, in RateLimit-Policy and RateLimit (both lists); the single-valued older fields and
   * Retry-After are those of the policy that refused, else of the last one counted.
   */
  headers(): Record<string, string> {
    if (this.#results.length === 0) return {};
    const explaining = this.#results.find((r) => !r.allowed) ?? this.#results.at(-1)!;
    return {
      ...quotaHeaders(explaining),
      "RateLimit-Policy": this.#results.map((r) => policyField(r.policy)).join(", "),
      RateLimit: this.#results.map((r) => quotaHeaders(r).RateLimit).join(", "),
    };
  }
}
