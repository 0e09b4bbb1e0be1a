import { Redis } from "@upstash/redis";
import { defaultDailyEmailLimit } from "../../src/config/settings.ts";
import { briefSchema } from "../../src/briefs/schema.ts";
import type { PipelineDeps } from "../../src/briefs/pipeline.ts";
import { postmarkMailer, type Mailer } from "../../src/briefs/mailer.ts";
import { LeadStore } from "../../src/briefs/store.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";

export const siteSizes = ["launch-site", "growth-site", "platform-site"] as const;

/** The pipeline's dependencies over a store reachable with the Upstash protocol, sending through `mailer`. */
export function pipelineDeps(
  store: { url: string; token: string },
  mailer: Mailer,
  overrides: Partial<PipelineDeps> = {},
): PipelineDeps & { alerts: string[] } {
  const redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
  const alerts: string[] = [];
  return {
    schema: briefSchema(siteSizes),
    store: new LeadStore(redis),
    limiter: upstashLimiter(redis, { cacheBlocked: false }),
    dailyEmailLimit: defaultDailyEmailLimit,
    mailer,
    from: "Website <website@studio.example>",
    to: "leads@studio.example",
    studio: "Kestrel Studio",
    alert: (m) => alerts.push(m),
    alerts,
    ...overrides,
  };
}

export const standInMailer = (standIn: { url: string; token: string }) =>
  postmarkMailer({ token: standIn.token, apiUrl: standIn.url, timeoutSeconds: 1 });

let counter = 0;
/** A valid brief from a person nobody has seen yet (the same-person window would collapse repeats). */
export const freshBrief = (extra: Record<string, unknown> = {}) => {
  counter += 1;
  return {
    full_name: `Ada Lovelace ${counter}`,
    company_name: `Analytical Engines ${Date.now()}-${counter}`,
    work_email: `ada${counter}@engines.example`,
    ...extra,
  };
};
