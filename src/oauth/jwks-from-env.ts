import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { oauthJson } from "../http/formats.ts";
import { jwksResponse } from "./jwks.ts";
import { signingKeysFromEnv } from "../tokens/keys.ts";

/**
 * GET /.well-known/jwks.json wired to the deployment's keys. Its own module, so the function bundles jose and
 * nothing of the authorization server (no store client, no schemas): it starts several times faster.
 */
export const jwksHandlerFromEnv = (env: Env) =>
  builtOnFirstUse(async () => {
    const response = jwksResponse(await signingKeysFromEnv(settingsFrom(env)));
    return async () => response.clone();
  }, oauthJson);
