import type { Env } from "../config/env.ts";
import { deployment, writes } from "../deployment.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { problemJsonAtOrigin } from "../http/formats.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { createBriefsHandler } from "./briefs.ts";

/** POST /api/v1/briefs wired to the deployment (src/deployment.ts): the token verifier, the lead store, the mailer. */
export function briefsHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const d = deployment(env);
  const { briefs } = writes(d, prebuilt);
  return builtOnFirstUse(
    async () => createBriefsHandler({ baseUrl: d.baseUrl(), verifier: d.verifier(), briefs: briefs() }),
    problemJsonAtOrigin,
  );
}
