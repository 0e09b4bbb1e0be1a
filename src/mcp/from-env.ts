import type { Env } from "../config/env.ts";
import { deployment, writes } from "../deployment.ts";
import { builtOnFirstUse } from "../http/door.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { mcpErrors } from "./errors.ts";
import { createMcpHandler } from "./http.ts";
import { allowedOriginsFrom } from "./origins.ts";
import { formDecisions } from "./form-decisions.ts";
import { requestStateCodec, requestStateKeys } from "./request-state.ts";
import { mcpServerFrom, mcpServerParts, mcpTools } from "./server.ts";
import { skillsCatalog } from "./skills.ts";

/**
 * /mcp wired to the deployment (src/deployment.ts): the shared token verifier, the quota store, the brief pipeline, the
 * signed state of the confirmation form, the skills (`skillFiles`, the build's prebuilt-skills.json). The pipeline's and
 * Cal.com's configuration is checked here; the pipeline's code (and jose, and Postmark) loads only when a request needs
 * it, and the state's keys are derived the first time a form is asked or answered.
 */
export function mcpHandlerFromEnv(env: Env, prebuilt: PrebuiltResources, card: object, skillFiles: Record<string, string>) {
  const d = deployment(env);
  const { settings } = d;
  const { briefs, booking } = writes(d, prebuilt);
  const build = async () => {
    const baseUrl = d.baseUrl();
    // A half-configured Cal.com is a ConfigurationError here, as a half-configured Postmark is: /mcp answers misconfigured.
    booking.booking();
    const redis = d.redis();
    const parts = mcpServerParts(
      prebuilt,
      mcpTools(prebuilt, briefs(), booking),
      // The confirmation form's state, signed with keys derived from the token signing keys, and the person's decisions.
      { state: requestStateCodec(() => requestStateKeys(settings.get("OAUTH_SIGNING_KEYS"))), decisions: formDecisions(redis) },
      await skillsCatalog(skillFiles),
    );
    return createMcpHandler({
      baseUrl,
      allowedOrigins: allowedOriginsFrom(settings, baseUrl),
      limiter: d.limiter(),
      verifier: d.verifier(),
      createServer: (era, method) => mcpServerFrom(parts, era, method),
      tools: parts.listed,
      card,
    });
  };
  return builtOnFirstUse(build, (refusal, c) => mcpErrors(new URL(c.req.url).origin)(refusal, c));
}
