import { baseUrlFrom, type Env } from "../config/env.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { publicJwksFromEnv } from "../oauth/keys.ts";
import { createAccessTokenVerifier } from "../oauth/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { pipelineFromEnv } from "./config.ts";
import { createBriefsHandler } from "./http.ts";

/** POST /api/v1/briefs wired to the deployment: the shared token verifier, the lead store, the mailer. */
export function briefsHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  return builtOnFirstUse(
    async () => {
      const baseUrl = baseUrlFrom(env);
      return createBriefsHandler({
        baseUrl,
        verifier: createAccessTokenVerifier({ baseUrl, jwks: publicJwksFromEnv(env) }),
        pipeline: pipelineFromEnv(env, prebuilt),
        responseTime: prebuilt.site.response_time,
      });
    },
    (refusal, c) => problemJson(new URL(c.req.url).origin)(refusal, c),
  );
}
