import { Refusal } from "../http/refusal.ts";
import { quotaHeaders } from "../limits/headers.ts";
import type { QuotaResult } from "../limits/limiter.ts";

/** The refusals only filing a brief makes, each with what it brings (the quota's headers). */

export const briefQuotaExceeded = (quota: QuotaResult) =>
  new Refusal("brief_quota_exceeded", {
    detail: `${quota.policy === "briefs-per-address" ? "Briefs from this address, every grant together, have reached" : "This grant has filed"} its ${quota.limit} briefs for now; retry in ${Math.max(1, quota.resetSeconds)} seconds.`,
    headers: quotaHeaders(quota),
  });

export const keyReused = () => new Refusal("idempotency_key_reused");
