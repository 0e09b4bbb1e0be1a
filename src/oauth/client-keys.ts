import type { Redis } from "@upstash/redis";
import type { JSONWebKeySet } from "jose";
import { isPublicJwk, metadataDocumentLimits, type CountQuota } from "./cimd.ts";
import { sha256, type ClientRecord } from "./clients.ts";
import { FetchRefused, fetchableScheme, fetchJsonGuarded } from "./ssrf.ts";

/**
 * The public keys a metadata document client signs its assertions with: inline in its document (`jwks`), or fetched
 * from its `jwks_uri` under the same guard, size and time limits as the document, and kept in the store for a short
 * time (`oauth:cimd:jwks:<hash>`). A key not found refreshes a fetched set, at most once per interval per key set.
 */
export interface ClientKeySetOptions {
  redis: Redis;
  count: CountQuota;
  allowLoopback: boolean;
  fetchJson?: typeof fetchJsonGuarded;
}

export const clientKeySetLimits = { cacheSeconds: 300, refreshIntervalSeconds: 30 } as const;

/** Why a key set could not be had, for the log only (the client is told invalid_client). */
export class KeySetUnavailable extends Error {
  override name = "KeySetUnavailable";
}

type CachedKeySet = JSONWebKeySet | { refused: true };

const cacheKey = (uri: string) => `oauth:cimd:jwks:${sha256(uri)}`;

export interface ClientKeySet {
  keys: JSONWebKeySet;
  /** Fetches the set again when a `kid` was not found; undefined when it cannot be refreshed (inline, just fetched, too soon). */
  refresh: () => Promise<JSONWebKeySet | undefined>;
}

export async function clientKeySet(client: ClientRecord, options: ClientKeySetOptions): Promise<ClientKeySet> {
  if (client.jwks) return { keys: client.jwks, refresh: async () => undefined };
  const uri = client.jwks_uri;
  if (!uri) throw new KeySetUnavailable("the client has neither jwks nor jwks_uri");
  const cached = await options.redis.get<CachedKeySet>(cacheKey(uri));
  if (cached && "refused" in cached) throw new KeySetUnavailable("its jwks_uri was refused recently");
  if (cached) {
    const refresh = async () => {
      const first = await options.redis.set(`${cacheKey(uri)}:refresh`, 1, { nx: true, ex: clientKeySetLimits.refreshIntervalSeconds });
      return first === null ? undefined : fetchKeySet(uri, options);
    };
    return { keys: cached, refresh };
  }
  return { keys: await fetchKeySet(uri, options), refresh: async () => undefined };
}

async function fetchKeySet(uri: string, options: ClientKeySetOptions): Promise<JSONWebKeySet> {
  const key = cacheKey(uri);
  await options.count("oauth-client-metadata");
  let keys: JSONWebKeySet;
  try {
    const url = new URL(uri);
    if (!fetchableScheme(url, options.allowLoopback)) throw new FetchRefused("the jwks_uri must use https");
    const { maxBytes, timeoutMs } = metadataDocumentLimits;
    const fetched = await (options.fetchJson ?? fetchJsonGuarded)(url, { maxBytes, timeoutMs, allowLoopback: options.allowLoopback });
    keys = publicKeySet(fetched);
  } catch (error) {
    if (!(error instanceof FetchRefused || error instanceof KeySetUnavailable)) throw error;
    await options.redis.set(key, { refused: true } satisfies CachedKeySet, { ex: clientKeySetLimits.refreshIntervalSeconds });
    throw new KeySetUnavailable(`its jwks_uri ${JSON.stringify(uri)} was refused: ${error.message}`);
  }
  await options.redis.set(key, keys, { ex: clientKeySetLimits.cacheSeconds });
  return keys;
}

function publicKeySet(value: unknown): JSONWebKeySet {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new KeySetUnavailable("the document at jwks_uri is not a JWK Set");
  const usable = keys.filter(isPublicJwk);
  return { keys: usable };
}
