import { AgentCard } from "@a2a-js/sdk";
import { DefaultRequestHandler } from "@a2a-js/sdk/server";
import { pipelineFromEnv } from "../briefs/config.ts";
import type { PipelineDeps } from "../briefs/pipeline.ts";
import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { publicJwksFromEnv } from "../tokens/keys.ts";
import { createAccessTokenVerifier } from "../tokens/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { agentCard } from "./card.ts";
import { createAgentExecutor } from "./executor.ts";
import { createA2AHandler } from "./http.ts";
import { a2aErrors } from "./errors.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { UpstashTaskStore } from "./task-store.ts";

/** The SDK's request handler over our executor and task store; the card is the one the build publishes (unsigned). */
export function a2aRequestHandler(baseUrl: string, prebuilt: PrebuiltResources, taskStore: UpstashTaskStore, pipeline: () => PipelineDeps) {
  const card = agentCard(baseUrl, prebuilt);
  return {
    card,
    requestHandler: new DefaultRequestHandler(AgentCard.fromJSON(card), taskStore, createAgentExecutor({ prebuilt, pipeline })),
  };
}

/** POST /a2a/v1 wired to the deployment: Upstash (tasks, quota), the shared token verifier, the brief pipeline. */
export function a2aHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const settings = settingsFrom(env);
  const build = async () => {
    const baseUrl = settings.required("URL");
    const verifier = createAccessTokenVerifier({ baseUrl, jwks: publicJwksFromEnv(settings) });
    const redis = redisFromEnv(settings);
    let pipeline: PipelineDeps | undefined;
    const lazyPipeline = () => (pipeline ??= pipelineFromEnv(settings, prebuilt));
    const { card, requestHandler } = a2aRequestHandler(baseUrl, prebuilt, new UpstashTaskStore(redis), lazyPipeline);
    return createA2AHandler({ baseUrl, card, requestHandler, verifier, limiter: upstashLimiter(redis) });
  };
  return builtOnFirstUse(build, a2aErrors);
}
