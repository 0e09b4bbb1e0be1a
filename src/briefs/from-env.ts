import { configurationProblem } from "../api/problem.ts";
import { baseUrlFrom, type Env } from "../config/env.ts";
import { builtOnce } from "../config/once.ts";
import { signingKeysFromEnv } from "../oauth/keys.ts";
import { authorize } from "../oauth/protect.ts";
import { createAccessTokenVerifier } from "../oauth/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { pipelineFromEnv } from "./config.ts";
import { createBriefsHandler } from "./http.ts";

/** Runs work after the response has been sent (Netlify's context.waitUntil). */
export type Background = (work: Promise<unknown>) => void;

/** POST /api/v1/briefs wired to the deployment: the shared token verifier, the lead store, the mailer. */
export function briefsHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  return builtOnce<Background | undefined>(async () => {
    const baseUrl = baseUrlFrom(env);
    const verifier = createAccessTokenVerifier({ baseUrl, jwks: (await signingKeysFromEnv(env)).publicJwks });
    return createBriefsHandler({
      baseUrl,
      authenticate: async (r) => {
        const auth = await authorize(verifier, r, baseUrl, "origin", ["svc:brief"]);
        return auth.ok ? { ok: true, clientId: auth.clientId } : auth;
      },
      pipeline: pipelineFromEnv(env, prebuilt),
      responseTime: prebuilt.site.response_time,
    });
  }, configurationProblem);
}
