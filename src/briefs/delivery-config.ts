import type { Redis } from "@upstash/redis";
import { ConfigurationError } from "../config/env.ts";
import type { Configuration } from "../config/settings.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import type { DeliveryDeps } from "./deliver.ts";
import { outboxMailer, postmarkMailer, type Mailer } from "./mailer.ts";
import { LeadStore } from "./store.ts";

/**
 * Where lead e-mails go: Postmark when POSTMARK_SERVER_TOKEN is set; without it, files in the outbox when npm start
 * set FRONTDOOR_OUTBOX_DIR (and LEADS_TO and LEADS_FROM); in production, nowhere yet: leads are kept and retried, and
 * every attempt logs a configuration error.
 */
export function mailerFromEnv(settings: Configuration): { mailer: Mailer; from: string; to: string } {
  const token = settings.get("POSTMARK_SERVER_TOKEN");
  const to = settings.get("LEADS_TO");
  const from = settings.get("LEADS_FROM");
  if (token) {
    if (!to || !from)
      throw new ConfigurationError(
        "POSTMARK_SERVER_TOKEN is set but LEADS_TO or LEADS_FROM is not: lead e-mails need a recipient and a sender signature",
      );
    return { mailer: postmarkMailer({ token, apiUrl: settings.get("POSTMARK_API_URL") }), from, to };
  }
  const outbox = settings.get("FRONTDOOR_OUTBOX_DIR");
  if (outbox) return { mailer: outboxMailer(outbox), from: from!, to: to! };
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
export function deliveryFromEnv(settings: Configuration, prebuilt: PrebuiltResources, redis: Redis = redisFromEnv(settings)): DeliveryDeps {
  return { store: new LeadStore(redis), studio: prebuilt.site.name, ...mailerFromEnv(settings) };
}
