import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { builtOnFirstUse, door, handlerOf } from "../http/door.ts";
import { refuseOtherMethods } from "../http/methods.ts";
import { oauthPaths, routeMethods } from "../paths.ts";
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
    const app = door(oauthJson);
    // Hono answers HEAD with the GET's headers and no body.
    app.get(oauthPaths.jwks, () => response.clone());
    app.all(oauthPaths.jwks, refuseOtherMethods(routeMethods[oauthPaths.jwks], "The key set is read with GET (or HEAD)."));
    return handlerOf(app);
  }, oauthJson);
