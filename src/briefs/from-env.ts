import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { publicJwksFromEnv } from "../tokens/keys.ts";
import { createAccessTokenVerifier } from "../tokens/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { briefServices } from "../operations/briefs.ts";
import { pipelineFromEnv } from "./config.ts";
import { createBriefsHandler } from "./http.ts";

/** POST /api/v1/briefs wired to the deployment: the shared token verifier, the lead store, the mailer. */
export function briefsHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const settings = settingsFrom(env);
  return builtOnFirstUse(
    async () => {
      const baseUrl = settings.required("URL");
      return createBriefsHandler({
        baseUrl,
        verifier: createAccessTokenVerifier({ baseUrl, jwks: publicJwksFromEnv(settings) }),
        briefs: briefServices(pipelineFromEnv(settings, prebuilt), {
          studio: prebuilt.site.name,
          responseTime: prebuilt.site.response_time,
        }),
      });
    },
    (refusal, c) => problemJson(new URL(c.req.url).origin)(refusal, c),
  );
}
