import { join } from "node:path";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { a2aRequestHandler } from "../../src/a2a/from-env.ts";
import { briefServices, type BriefServices } from "../../src/operations/briefs.ts";
import { createA2AHandler } from "../../src/a2a/http.ts";
import { pageTokenLabel, pageTokens } from "../../src/a2a/page-token.ts";
import { UpstashTaskStore } from "../../src/a2a/task-store.ts";
import type { Mailer } from "../../src/briefs/mailer.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { derivedSecrets } from "../../src/tokens/derived-keys.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";
import { createAccessTokenVerifier } from "../../src/tokens/verify.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { pipelineDeps } from "./briefs.ts";
import { nodeRedis } from "./node-redis.ts";
import { loadContentDir } from "./content.ts";
import { patience } from "./patience.ts";
import { storeFolder } from "./scratch.ts";

export const agentBase = "https://studio.example";

/**
 * The A2A handler in-process over the local store, as the function runs it, without Cal.com; `bare` leaves out the token
 * check and quota, `agentBooking` builds the card as a build that offers booking does; `briefs` replaces the brief
 * services the deployment builds.
 */
export async function inProcessAgent({
  bare = false,
  agentBooking = false,
  briefs,
}: { bare?: boolean; agentBooking?: boolean; briefs?: () => BriefServices } = {}) {
  const store = await startLocalStore({ token: "test", snapshotFile: join(await storeFolder("a2a-store-"), "store.json") });
  const redis = nodeRedis(store);
  const keySet = JSON.stringify(await generateKeySet());
  const keys = await importSigningKeys(keySet);
  const prebuilt = prebuiltResources(buildSite(await loadContentDir("content"), agentBase, { agentBooking }));
  const sent: unknown[] = [];
  const mailer: Mailer = {
    kind: "memory",
    send: async (m) => (sent.push(m), { outcome: "delivered", messageId: crypto.randomUUID() }),
    findSent: async () => null,
  };
  const pipeline = pipelineDeps(store, mailer);
  const { card, requestHandler } = a2aRequestHandler(
    agentBase,
    prebuilt,
    new UpstashTaskStore(
      redis,
      pageTokens(() => derivedSecrets(keySet, pageTokenLabel)),
    ),
    briefs ?? (() => briefServices(pipeline, { studio: prebuilt.site.name, responseTime: prebuilt.site.response_time })),
    async () => undefined,
  );
  const handler = createA2AHandler({
    baseUrl: agentBase,
    card,
    requestHandler,
    ...(bare
      ? {}
      : {
          verifier: createAccessTokenVerifier({ baseUrl: agentBase, jwks: keys.publicJwks }),
          limiter: upstashLimiter(redis, { cacheBlocked: false, timeoutMs: patience }),
        }),
  });
  let ip = 0;
  return {
    prebuilt,
    sent,
    /** A token of `clientId`'s own grant (as client_credentials gives), unless another grant is given. */
    token: async (scope: string, clientId = "client-1", grantId = clientGrantId(clientId)) =>
      (await issueAccessToken(keys, agentBase, { clientId, grantId, scope, audience: `${agentBase}/a2a/v1` }, Date.now())).access_token,
    /** One JSON-RPC call; every call comes from a new client IP unless one is given. */
    rpc: (body: unknown, headers: Record<string, string> = {}, from = `10.1.${Math.floor(++ip / 250)}.${ip % 250}`) =>
      handler(
        new Request(`${agentBase}/a2a/v1`, {
          method: "POST",
          headers: { "content-type": "application/json", "a2a-version": "1.0", ...headers },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
        { ip: from, waitUntil: () => {} },
      ),
    /** One HTTP+JSON SendMessage (POST /a2a/v1/rest/message:send), from a new client IP each time. */
    restSend: (body: unknown, headers: Record<string, string> = {}) =>
      handler(
        new Request(`${agentBase}/a2a/v1/rest/message:send`, {
          method: "POST",
          headers: { "content-type": "application/a2a+json", "a2a-version": "1.0", ...headers },
          body: JSON.stringify(body),
        }),
        { ip: `10.2.${Math.floor(++ip / 250)}.${ip % 250}`, waitUntil: () => {} },
      ),
    handler,
    redis,
    close: () => store.close(),
  };
}
