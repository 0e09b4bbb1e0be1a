import { defaultDailyEmailLimit } from "../../src/config/settings.ts";
import { briefSchema, type Brief, type BriefSchema } from "../../src/briefs/schema.ts";
import { fieldErrorsOf } from "../../src/briefs/validate.ts";
import type { Channel } from "../../src/briefs/lead.ts";
import { fileBrief, type FilingRequest, type FilingResult, type PipelineDeps } from "../../src/briefs/pipeline.ts";
import type { ConditionName } from "../../src/http/conditions.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { briefServices, fileBriefOperation } from "../../src/operations/briefs.ts";
import { perform, type Caller } from "../../src/operations/operation.ts";
import { postmarkMailer, type Mailer } from "../../src/briefs/mailer.ts";
import { LeadStore } from "../../src/briefs/store.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { nodeRedis } from "./node-redis.ts";
import { patience } from "./patience.ts";

export const siteSizes = ["launch-site", "growth-site", "platform-site"] as const;

/** The pipeline's dependencies over a store reachable with the Upstash protocol (as the functions reach it), sending through `mailer`. */
export function pipelineDeps(
  store: { url: string; token: string },
  mailer: Mailer,
  overrides: Partial<PipelineDeps> = {},
): PipelineDeps & { alerts: string[] } {
  const redis = nodeRedis(store);
  const alerts: string[] = [];
  return {
    schema: briefSchema(siteSizes),
    store: new LeadStore(redis),
    limiter: upstashLimiter(redis, { cacheBlocked: false, timeoutMs: patience }),
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

/** Postmark's client, for the stand-in: it waits the shared patience, so that a send on a loaded machine is late, never lost. */
export const standInMailer = (standIn: { url: string; token: string }) =>
  postmarkMailer({ token: standIn.token, apiUrl: standIn.url, timeoutSeconds: patience / 1000 });

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

/** What filing a body came to: the pipeline's result, a dry run, or a refusal named by its condition. */
export type Filed = FilingResult | { kind: "dry_run" } | { kind: ConditionName; refusal: Refusal };

/**
 * Files a body as every door does (the brief operation, src/operations/briefs.ts, over the pipeline under test), and
 * answers what the pipeline made, so the pipeline's tests can read its lead; a refusal is answered with its condition.
 */
export async function fileBody(
  { body, channel, idempotencyKey, ...caller }: Caller & { body: Record<string, unknown>; channel: Channel; idempotencyKey?: string },
  deps: PipelineDeps,
): Promise<Filed> {
  let made: FilingResult | undefined;
  const services = {
    ...briefServices(deps, { studio: deps.studio, responseTime: "A person replies within one business day." }),
    file: async (brief: Brief, request: FilingRequest) => (made = await fileBrief(brief, request, deps)),
  };
  try {
    const outcome = await perform(fileBriefOperation(deps.schema), body, { caller, channel, idempotencyKey, services });
    return outcome.kind === "dry_run" ? { kind: "dry_run" } : made!;
  } catch (error) {
    if (error instanceof Refusal) return { kind: error.condition, refusal: error };
    throw error;
  }
}

/**
 * A body as the brief operation validates it (`perform`: the schema, then `fieldErrorsOf` for a refusal), with what it
 * normalised: the brief, whether it is a dry run, or every offending field.
 */
export function validateBrief(schema: BriefSchema, body: Record<string, unknown>) {
  const result = schema.safeParse(body);
  if (!result.success) return { ok: false as const, errors: fieldErrorsOf(result.error, body, "brief") };
  const { dry_run, ...brief } = result.data;
  return { ok: true as const, brief: brief as Brief, dryRun: dry_run === true };
}
