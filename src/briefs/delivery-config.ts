import type { Redis } from "@upstash/redis";
import { ConfigurationError, isNetlifyDev, type Env } from "../config/env.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import type { DeliveryDeps } from "./deliver.ts";
import { outboxMailer, postmarkMailer, type Mailer } from "./mailer.ts";
import { LeadStore } from "./store.ts";

/**
 * Where lead e-mails go: Postmark when POSTMARK_SERVER_TOKEN is set; locally without it, files in the outbox; in
 * production without it, nowhere yet: leads are kept and retried, and every attempt logs a configuration error.
 */
export function mailerFromEnv(env: Env): { mailer: Mailer; from: string; to: string } {
  const token = env("POSTMARK_SERVER_TOKEN");
  const local = isNetlifyDev(env);
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

/**
 * What delivering lead e-mails needs, and nothing more: the scheduled delivery job bundles this module, so it stays
 * free of the brief schema and the quota client.
 */
export function deliveryFromEnv(env: Env, prebuilt: PrebuiltResources, redis: Redis = redisFromEnv(env)): DeliveryDeps {
  return { store: new LeadStore(redis), studio: prebuilt.site.name, ...mailerFromEnv(env) };
}
