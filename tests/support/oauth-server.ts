import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";
import { consentAddresses } from "../../src/oauth/consent-address.ts";
import { createOAuthHandler } from "../../src/oauth/server.ts";
import type { OAuthServerOptions } from "../../src/oauth/server-options.ts";
import { patience } from "./patience.ts";
import { storeFolder } from "./scratch.ts";

/** The authorization server in-process over the local store (the Upstash protocol), as the function runs it. */
export async function inProcessOAuthServer(overrides: Partial<OAuthServerOptions> = {}) {
  const store = await startLocalStore({ token: "test", snapshotFile: join(await storeFolder("oauth-store-"), "store.json") });
  const redis = new Redis({ url: store.url, token: store.token, enableTelemetry: false });
  const privateKeys = await generateKeySet();
  const options: OAuthServerOptions = {
    baseUrl: "https://studio.example",
    keys: await importSigningKeys(JSON.stringify(privateKeys)),
    consentAddress: consentAddresses(JSON.stringify(privateKeys)),
    redis,
    limiter: upstashLimiter(redis, { timeoutMs: patience }),
    page: { studioName: "Test Studio", stylesheet: "body{}" },
    ...overrides,
  };
  const handler = createOAuthHandler(options);
  let ip = 0;
  return {
    options,
    privateKeys,
    store,
    /** Calls the handler; every call comes from a new client IP unless one is given. */
    call: (path: string, init: RequestInit = {}, from = `10.0.${Math.floor(++ip / 250)}.${ip % 250}`) =>
      handler(new Request(`${options.baseUrl}${path}`, init), { ip: from, waitUntil: () => {} }),
    close: () => store.close(),
  };
}

export const jsonPost = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

export const formPost = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
