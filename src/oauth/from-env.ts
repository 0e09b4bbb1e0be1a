import type { Env } from "../config/env.ts";
import type { SettingName } from "../config/settings.ts";
import { deployment } from "../deployment.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { oauthJson } from "../http/formats.ts";
import { pageShell } from "../site/page-shell.ts";
import { signingKeysFromEnv, signingKeysVariable } from "../tokens/keys.ts";
import { consentAddresses } from "./consent-address.ts";
import { createOAuthHandler } from "./server.ts";

/** Test-only: lets client ID metadata documents live on loopback http, and only when the site itself is local. */
export const loopbackMetadataDocumentsVariable = "FRONTDOOR_ALLOW_LOOPBACK_CIMD" satisfies SettingName;

const isLocal = (baseUrl: string) => ["localhost", "127.0.0.1", "[::1]"].includes(new URL(baseUrl).hostname);

/**
 * Wires the handlers to the deployment (src/deployment.ts), once per function instance. A configuration that cannot work
 * (no signing keys, no store) is a 503 `server_error` with one clear log line, never a silently generated key; a store
 * that does not answer is a 503 `temporarily_unavailable` (the HTTP core's door). Neither carries a stack trace.
 */
export function oauthHandlerFromEnv(env: Env) {
  const d = deployment(env);
  const { settings } = d;
  return builtOnFirstUse(async () => {
    const baseUrl = d.baseUrl();
    return createOAuthHandler({
      baseUrl,
      keys: await signingKeysFromEnv(settings),
      consentAddress: consentAddresses(settings.get(signingKeysVariable)),
      redis: d.redis(),
      limiter: d.limiter(),
      page: pageShell(),
      allowLoopbackMetadataDocuments: settings.get(loopbackMetadataDocumentsVariable) && isLocal(baseUrl),
    });
  }, oauthJson);
}
