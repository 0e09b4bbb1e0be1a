import { ConfigurationError, type Env } from "../config/env.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { siteSizeIds, type PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/redis.ts";
import { outboxMailer, postmarkMailer, type Mailer } from "./mailer.ts";
import type { PipelineDeps } from "./pipeline.ts";
import { briefSchema } from "./schema.ts";
import { LeadStore } from "./store.ts";

/** Under netlify dev (the local runtime). */
export const isLocal = (env: Env) => env("NETLIFY_DEV") === "true";

/**
 * Where lead e-mails go: Postmark when POSTMARK_SERVER_TOKEN is set; locally without it, files in the outbox; in
 * production without it, nowhere yet: leads are kept and retried, and every attempt logs a configuration error.
 */
export function mailerFromEnv(env: Env): { mailer: Mailer; from: string; to: string } {
  const token = env("POSTMARK_SERVER_TOKEN");
  const local = isLocal(env);
  const to = env("LEADS_TO") ?? (local ? "leads@localhost" : undefined);
  const from = env("LEADS_FROM") ?? (local ? "website@localhost" : undefined);
  if (token) {
    if (!to || !from)
      throw new ConfigurationError(
        "POSTMARK_SERVER_TOKEN is set but LEADS_TO or LEADS_FROM is not: lead e-mails need a recipient and a sender signature",
      );
    return { mailer: postmarkMailer({ token, apiUrl: env("POSTMARK_API_URL") }), from, to };
  }
  if (local) return { mailer: outboxMailer(env("FRONTDOOR_OUTBOX_DIR") ?? ".data/outbox"), from: from!, to: to! };
  const reason = "POSTMARK_SERVER_TOKEN is not set: leads are recorded and kept pending until Postmark is configured";
  return {
    mailer: {
      kind: "unconfigured",
      send: async () => {
        console.error(`CONFIGURATION ERROR: ${reason}`);
        return { outcome: "transient", reason };
      },
      findSent: async () => null,
    },
    from: from ?? "unconfigured",
    to: to ?? "unconfigured",
  };
}

/** Everything the brief pipeline needs, from the environment and the prebuilt content. */
export function pipelineFromEnv(env: Env, prebuilt: PrebuiltResources, background?: PipelineDeps["background"]): PipelineDeps {
  const redis = redisFromEnv(env);
  return {
    schema: briefSchema(siteSizeIds(prebuilt)),
    store: new LeadStore(redis),
    limiter: upstashLimiter(redis, { cacheBlocked: !isLocal(env) }),
    studio: prebuilt.site.name,
    background,
    ...mailerFromEnv(env),
  };
}
