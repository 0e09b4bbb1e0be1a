import { bookingFromEnv } from "../booking/from-env.ts";
import { pipelineFromEnv } from "../briefs/config.ts";
import { briefServices } from "../operations/briefs.ts";
import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { publicJwksFromEnv } from "../tokens/keys.ts";
import { createAccessTokenVerifier } from "../tokens/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { mcpErrors } from "./errors.ts";
import { createMcpHandler } from "./http.ts";
import { allowedOriginsFrom } from "./origins.ts";
import { formDecisions } from "./form-decisions.ts";
import { requestStateCodec, requestStateKeys } from "./request-state.ts";
import { mcpServerFrom, mcpServerParts, mcpTools } from "./server.ts";
import { skillsCatalog } from "./skills.ts";

/**
 * /mcp wired to the deployment: the shared token verifier, the quota store, the brief pipeline, the signed state of the
 * confirmation form, the skills (`skillFiles`, the build's prebuilt-skills.json). The pipeline's configuration is
 * checked here; its code (and jose, and Postmark) loads only when a request needs it, and the state's keys are derived
 * the first time a form is asked or answered.
 */
export function mcpHandlerFromEnv(env: Env, prebuilt: PrebuiltResources, card: object, skillFiles: Record<string, string>) {
  const settings = settingsFrom(env);
  const build = async () => {
    const baseUrl = settings.required("URL");
    const pipeline = pipelineFromEnv(settings, prebuilt);
    // A half-configured Cal.com is a ConfigurationError here, as a half-configured Postmark is: /mcp answers misconfigured.
    const booking = bookingFromEnv(settings, prebuilt);
    const redis = redisFromEnv(settings);
    const parts = mcpServerParts(
      prebuilt,
      mcpTools(prebuilt, briefServices(pipeline, { studio: prebuilt.site.name, responseTime: prebuilt.site.response_time }), {
        booking: () => booking,
        studio: prebuilt.site.name,
      }),
      // The confirmation form's state, signed with keys derived from the token signing keys, and the person's decisions.
      { state: requestStateCodec(() => requestStateKeys(settings.get("OAUTH_SIGNING_KEYS"))), decisions: formDecisions(redis) },
      await skillsCatalog(skillFiles),
    );
    return createMcpHandler({
      baseUrl,
      allowedOrigins: allowedOriginsFrom(settings, baseUrl),
      limiter: upstashLimiter(redis),
      verifier: createAccessTokenVerifier({ baseUrl, jwks: publicJwksFromEnv(settings) }),
      createServer: (era) => mcpServerFrom(parts, era),
      tools: parts.listed,
      card,
    });
  };
  return builtOnFirstUse(build, (refusal, c) => mcpErrors(new URL(c.req.url).origin)(refusal, c));
}
