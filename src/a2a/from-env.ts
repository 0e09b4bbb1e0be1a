import { AgentCard } from "@a2a-js/sdk";
import { DefaultRequestHandler } from "@a2a-js/sdk/server";
import type { BookingDeps } from "../booking/book.ts";
import { pipelineFromEnv } from "../briefs/config.ts";
import type { PipelineDeps } from "../briefs/pipeline.ts";
import { briefServices, type BriefServices } from "../operations/briefs.ts";
import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import { publicJwksFromEnv, signingKeysVariable } from "../tokens/keys.ts";
import { createAccessTokenVerifier } from "../tokens/verify.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { agentCard } from "./card.ts";
import { createAgentExecutor } from "./executor.ts";
import { createA2AHandler } from "./http.ts";
import { a2aErrors } from "./errors.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { UpstashTaskStore } from "./task-store.ts";
import { pageTokenLabel, pageTokens } from "./page-token.ts";
import { derivedSecrets } from "../tokens/derived-keys.ts";

/** The SDK's request handler over our executor and task store; the card is the one the build publishes (unsigned). */
export function a2aRequestHandler(
  baseUrl: string,
  prebuilt: PrebuiltResources,
  taskStore: UpstashTaskStore,
  pipeline: () => PipelineDeps,
  booking: () => Promise<BookingDeps | undefined>,
) {
  const card = agentCard(baseUrl, prebuilt);
  let services: BriefServices | undefined;
  const wording = { studio: prebuilt.site.name, responseTime: prebuilt.site.response_time };
  const briefs = () => (services ??= briefServices(pipeline(), wording));
  return {
    card,
    requestHandler: new DefaultRequestHandler(AgentCard.fromJSON(card), taskStore, createAgentExecutor({ prebuilt, briefs, booking })),
  };
}

/**
 * POST /a2a/v1 wired to the deployment: Upstash (tasks, quota), the shared token verifier, the brief pipeline, and
 * booking where Cal.com is configured (its code and configuration load with the first booking skill's message).
 */
export function a2aHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const settings = settingsFrom(env);
  const build = async () => {
    const baseUrl = settings.required("URL");
    const verifier = createAccessTokenVerifier({ baseUrl, jwks: publicJwksFromEnv(settings) });
    const redis = redisFromEnv(settings);
    let pipeline: PipelineDeps | undefined;
    const lazyPipeline = () => (pipeline ??= pipelineFromEnv(settings, prebuilt));
    let booking: Promise<BookingDeps | undefined> | undefined;
    const lazyBooking = () =>
      (booking ??= import("../booking/from-env.ts")
        .then(({ bookingFromEnv }) => bookingFromEnv(settings, prebuilt))
        // A configuration refused now is read again on the next message, as a door's is.
        .catch((error: unknown) => ((booking = undefined), Promise.reject(error))));
    // Page tokens are signed with a secret derived from the signing keys, on the first ListTasks that needs one.
    const tasks = new UpstashTaskStore(
      redis,
      pageTokens(() => derivedSecrets(settings.get(signingKeysVariable), pageTokenLabel)),
    );
    const { card, requestHandler } = a2aRequestHandler(baseUrl, prebuilt, tasks, lazyPipeline, lazyBooking);
    return createA2AHandler({ baseUrl, card, requestHandler, verifier, limiter: upstashLimiter(redis) });
  };
  return builtOnFirstUse(build, a2aErrors);
}
