import { baseUrlFrom, ConfigurationError, type Env } from "../config/env.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { redisFromEnv } from "../store/redis.ts";
import { jsonResponse, misconfiguredResponse } from "./errors.ts";
import { signingKeysFromEnv } from "./keys.ts";
import { pageShell } from "../site/page-shell.ts";
import { createOAuthHandler, type RequestContext } from "./server.ts";

/** Test-only: lets client ID metadata documents live on loopback http, and only when the site itself is local. */
export const loopbackMetadataDocumentsVariable = "FRONTDOOR_ALLOW_LOOPBACK_CIMD";

const isLocal = (baseUrl: string) => ["localhost", "127.0.0.1", "[::1]"].includes(new URL(baseUrl).hostname);

/**
 * Wires the handlers to the deployment's configuration, once per function instance. A configuration that cannot
 * work (no signing keys, no store) is a 503 `server_error` with one clear log line, never a silently generated key; a
 * store that does not answer (the quota store included: every endpoint needs the store anyway) is a 503
 * `temporarily_unavailable`. Neither ever carries a stack trace to the client.
 */
function guarded<T>(build: () => Promise<T>, serve: (built: T, request: Request, context: RequestContext) => Promise<Response> | Response) {
  let built: Promise<T> | undefined;
  return async (request: Request, context: RequestContext): Promise<Response> => {
    try {
      built ??= build();
      return await serve(await built, request, context);
    } catch (error) {
      if (error instanceof ConfigurationError) {
        built = undefined;
        console.error(`CONFIGURATION ERROR: ${error.message}`);
        return misconfiguredResponse();
      }
      console.error(`OAuth request failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return jsonResponse(
        { error: "temporarily_unavailable", error_description: "The service is briefly unavailable; try again shortly." },
        503,
        {
          "Retry-After": "5",
        },
      );
    }
  };
}

export function oauthHandlerFromEnv(env: Env) {
  return guarded(
    async () => {
      const baseUrl = baseUrlFrom(env);
      const redis = redisFromEnv(env);
      const emulator = env("NETLIFY_DEV") === "true";
      return createOAuthHandler({
        baseUrl,
        keys: await signingKeysFromEnv(env),
        redis,
        // Locally the function lives for the whole run and tests reset windows in the store: no blocked-client cache.
        limiter: upstashLimiter(redis, { cacheBlocked: !emulator }),
        page: pageShell(),
        allowLoopbackMetadataDocuments: env(loopbackMetadataDocumentsVariable) === "1" && isLocal(baseUrl),
        emulatorRetries: emulator,
      });
    },
    (handler, request, context) => handler(request, context),
  );
}
