import type { Env } from "../config/env.ts";
import { settingsFrom, type SettingName } from "../config/settings.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { oauthJson } from "../http/formats.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { pageShell } from "../site/page-shell.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { signingKeysFromEnv, signingKeysVariable } from "../tokens/keys.ts";
import { consentAddresses } from "./consent-address.ts";
import { createOAuthHandler } from "./server.ts";

/** Test-only: lets client ID metadata documents live on loopback http, and only when the site itself is local. */
export const loopbackMetadataDocumentsVariable = "FRONTDOOR_ALLOW_LOOPBACK_CIMD" satisfies SettingName;

const isLocal = (baseUrl: string) => ["localhost", "127.0.0.1", "[::1]"].includes(new URL(baseUrl).hostname);

/**
 * Wires the handlers to the deployment's configuration, once per function instance. A configuration that cannot work
 * (no signing keys, no store) is a 503 `server_error` with one clear log line, never a silently generated key; a store
 * that does not answer is a 503 `temporarily_unavailable` (the HTTP core's door). Neither carries a stack trace.
 */
export function oauthHandlerFromEnv(env: Env) {
  const settings = settingsFrom(env);
  return builtOnFirstUse(async () => {
    const baseUrl = settings.required("URL");
    const redis = redisFromEnv(settings);
    return createOAuthHandler({
      baseUrl,
      keys: await signingKeysFromEnv(settings),
      consentAddress: consentAddresses(settings.get(signingKeysVariable)),
      redis,
      limiter: upstashLimiter(redis),
      page: pageShell(),
      allowLoopbackMetadataDocuments: settings.get(loopbackMetadataDocumentsVariable) && isLocal(baseUrl),
    });
  }, oauthJson);
}
