import { AgentCard } from "@a2a-js/sdk";
import { DefaultRequestHandler } from "@a2a-js/sdk/server";
import type { Env } from "../config/env.ts";
import { deployment, writes } from "../deployment.ts";
import type { BookingServices } from "../operations/booking.ts";
import type { BriefServices } from "../operations/briefs.ts";
import { signingKeysVariable } from "../tokens/keys.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
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
  briefs: () => BriefServices,
  booking: BookingServices["booking"],
) {
  const card = agentCard(baseUrl, prebuilt);
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
  const d = deployment(env);
  const { briefs, booking } = writes(d, prebuilt);
  const build = async () => {
    const baseUrl = d.baseUrl();
    // Page tokens are signed with a secret derived from the signing keys, on the first ListTasks that needs one.
    const tasks = new UpstashTaskStore(
      d.redis(),
      pageTokens(() => derivedSecrets(d.settings.get(signingKeysVariable), pageTokenLabel)),
    );
    const { card, requestHandler } = a2aRequestHandler(baseUrl, prebuilt, tasks, briefs, booking.booking);
    return createA2AHandler({ baseUrl, card, requestHandler, verifier: d.verifier(), limiter: d.limiter() });
  };
  return builtOnFirstUse(build, a2aErrors);
}
