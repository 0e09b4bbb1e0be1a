import type { Redis } from "@upstash/redis";
import { validateClientMetadata } from "./client-metadata.ts";
import { sha256, type ClientRecord } from "./clients.ts";
import { Refusal } from "../http/refusal.ts";
import type { PolicyName } from "../limits/policies.ts";
import { freshnessSeconds } from "./freshness.ts";
import { FetchOutage, FetchRefused, fetchableScheme, fetchJsonGuardedResponse } from "./ssrf.ts";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that is an https URL
 * names a JSON document of client metadata, fetched on use and cached as its Cache-Control says, within bounds. Such
 * clients are public (PKCE, no secret) or prove themselves with a key (private_key_jwt, src/oauth/client-assertion.ts),
 * and are never stored as registrations.
 */
/** Counts one more quota for the current request (a metadata document fetch); throws a Refusal past its limit. */
export type CountQuota = (policy: PolicyName) => Promise<unknown>;

export interface MetadataDocumentOptions {
  redis: Redis;
  /** Counts a fetch against the requesting IP's `oauth-client-metadata` quota; a cached answer does not count. */
  count: CountQuota;
  /** Test-only mode: http on loopback hosts is accepted and fetched. Never on by default. */
  allowLoopback: boolean;
  fetchDocument?: typeof fetchJsonGuardedResponse;
  /** Where the reason for a refusal, or for serving a stale copy, goes; the client is never told it. */
  log?: (line: string) => void;
  /** The clock (epoch milliseconds) the cached times are read and written by; Date.now by default. */
  now?: () => number;
}

export const metadataDocumentLimits = {
  maxBytes: 5 * 1024,
  timeoutMs: 2000,
  /** How long an accepted document stays fresh when its Cache-Control gives no freshness (no max-age, no s-maxage). */
  cacheSeconds: 300,
  /** The least an accepted document is kept fresh, whatever it says (no-store, no-cache, private, max-age=0 get this). */
  minCacheSeconds: 60,
  /** The most an accepted document is kept fresh, whatever it says. */
  maxCacheSeconds: 24 * 3600,
  /** How long after its freshness the last accepted copy stands in while the document's host fails to answer. */
  staleSeconds: 24 * 3600,
  refusalCacheSeconds: 60,
  urlLength: 512,
} as const;

/**
 * The answer to every refused document, whatever the reason (a bad URL, DNS, a private address, a refused
 * connection, a timeout, the size, the JSON, the metadata): different texts would tell a stranger about our network
 * and theirs. The reason goes to the log.
 */
export const refusedDocumentDescription =
  "The client_id is not a usable client metadata document: the URL, its fetch or the document it names was refused.";

const refusedDocument = () => new Refusal("invalid_client", { detail: refusedDocumentDescription });

/** Why a document was refused, for the log only. */
export class DocumentRefused extends Error {
  override name = "DocumentRefused";
}

/** Whether the client_id is meant as a metadata document URL (then it must also be a valid one). */
export const looksLikeMetadataDocumentUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

/** The draft's §3 rules for the URL itself: https, a path, no dot segments, no fragment, no user information. */
function documentUrl(clientId: string, allowLoopback: boolean): URL {
  const refuse = (why: string) => new DocumentRefused(`the URL ${why}`);
  if (clientId.length > metadataDocumentLimits.urlLength) throw refuse("is too long");
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw refuse("is not a URL");
  }
  if (!fetchableScheme(url, allowLoopback)) throw refuse("must use https");
  if (url.href !== clientId) throw refuse("must be written in its normal form");
  if (url.pathname === "/" || /\/\.\.?(\/|$)/.test(url.pathname)) throw refuse("needs a path without dot segments");
  if (url.hash || clientId.includes("#")) throw refuse("must not have a fragment");
  if (url.username || url.password) throw refuse("must not carry user information");
  return url;
}

const cacheKey = (clientId: string) => `oauth:cimd:${sha256(clientId)}`;

/**
 * What `oauth:cimd:<hash>` holds: an accepted document's client with its times, or the mark of a recent refusal; or,
 * written before documents were cached by their Cache-Control, a bare client (fresh until the key expires) or a bare
 * `{refused: true}`. The times ride inside the client record, so an instance of that earlier code (a rollback) still
 * reads it as the client it is.
 */
type StoredDocument = CachedClient | ClientRecord | { refused: true; until?: number };

/** An accepted document's client and its times, in epoch milliseconds; the key expires at `staleUntil`. */
type CachedClient = ClientRecord & { cache: { fetchedAt: number; freshUntil: number; staleUntil: number } };

const withoutTimes = ({ cache: _, ...client }: CachedClient): ClientRecord => client;
/** A store TTL in whole seconds, at least one, from now until `until`. */
const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/**
 * The client a metadata document URL names. An accepted document is kept fresh as its Cache-Control says (between
 * `minCacheSeconds` and `maxCacheSeconds`, `cacheSeconds` when it says nothing), a refusal for `refusalCacheSeconds`;
 * a fresh copy or a recent refusal answers from one store read. Every fetch, the first or a refetch, counts against the
 * requesting IP's `oauth-client-metadata` quota (a rate_limited Refusal past it).
 *
 * When a refetch gets no answer (FetchOutage: DNS, connection, timeout, 5xx, 429), the last accepted copy is served
 * until `staleSeconds` after its freshness ended, and is tried again no sooner than `minCacheSeconds` later; each such
 * failed refetch is logged. A document that answers and is refused (a status, a redirect, the size, the JSON, the metadata)
 * replaces the copy with a refusal at once: the publisher has spoken. Every refusal is the same invalid_client; its
 * reason is logged in one line with the URL.
 */
export async function resolveMetadataDocumentClient(clientId: string, options: MetadataDocumentOptions): Promise<ClientRecord> {
  const log = options.log ?? console.error;
  const quoted = JSON.stringify(clientId.slice(0, 600));
  const refuse = (reason: string) => {
    log(`client metadata document refused: ${quoted}: ${reason}`);
    return refusedDocument();
  };
  let url: URL;
  try {
    url = documentUrl(clientId, options.allowLoopback);
  } catch (error) {
    if (error instanceof DocumentRefused) throw refuse(error.message);
    throw error;
  }
  const limits = metadataDocumentLimits;
  const key = cacheKey(clientId);
  const stored = await options.redis.get<StoredDocument>(key);
  const now = options.now?.() ?? Date.now();
  if (stored && "refused" in stored) {
    if (stored.until === undefined || stored.until > now) throw refusedDocument();
  } else if (stored && !("cache" in stored)) return stored;
  else if (stored && stored.cache.freshUntil > now) return withoutTimes(stored);
  const stale = stored && "cache" in stored && stored.cache.staleUntil > now ? stored : undefined;

  await options.count("oauth-client-metadata");
  let fetched: Awaited<ReturnType<typeof fetchJsonGuardedResponse>>;
  let record: ClientRecord;
  try {
    const guard = { maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs, allowLoopback: options.allowLoopback };
    fetched = await (options.fetchDocument ?? fetchJsonGuardedResponse)(url, guard);
    record = clientFromDocument(clientId, fetched.json);
  } catch (error) {
    if (error instanceof FetchOutage && stale) {
      const { fetchedAt, staleUntil } = stale.cache;
      const freshUntil = Math.min(now + limits.minCacheSeconds * 1000, staleUntil);
      await options.redis.set(key, { ...stale, cache: { fetchedAt, freshUntil, staleUntil } } satisfies CachedClient, {
        ex: secondsUntil(staleUntil, now),
      });
      log(
        `client metadata document served stale: ${quoted}: ${error.message}; ` +
          `the copy fetched at ${new Date(fetchedAt).toISOString()} is served until ${new Date(staleUntil).toISOString()}`,
      );
      return withoutTimes(stale);
    }
    if (!(error instanceof FetchRefused || error instanceof DocumentRefused)) throw error;
    const until = now + limits.refusalCacheSeconds * 1000;
    await options.redis.set(key, { refused: true, until } satisfies StoredDocument, { ex: limits.refusalCacheSeconds });
    throw refuse(stale ? `${error.message}; its cached copy is dropped` : error.message);
  }
  const fresh = freshnessSeconds(fetched.cacheControl, fetched.age, {
    floorSeconds: limits.minCacheSeconds,
    ceilingSeconds: limits.maxCacheSeconds,
    defaultSeconds: limits.cacheSeconds,
  });
  const freshUntil = now + fresh * 1000;
  const staleUntil = freshUntil + limits.staleSeconds * 1000;
  const cached: CachedClient = { ...record, cache: { fetchedAt: now, freshUntil, staleUntil } };
  await options.redis.set(key, cached, { ex: fresh + limits.staleSeconds });
  return record;
}

/** The document's rules (draft §4): its client_id is its own URL exactly, no shared secret, public client metadata. */
export function clientFromDocument(clientId: string, document: unknown): ClientRecord {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new DocumentRefused("the document is not a JSON object");
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) throw new DocumentRefused("the document's client_id is not its own URL");
  if ("client_secret" in fields || "client_secret_expires_at" in fields) {
    throw new DocumentRefused("the document carries a client secret");
  }
  let metadata;
  try {
    metadata = validateClientMetadata(fields, "none", documentAuthMethods);
  } catch (error) {
    if (error instanceof Refusal) throw new DocumentRefused(`the document's metadata is invalid: ${error.options.detail}`);
    throw error;
  }
  const record: ClientRecord = { client_id: clientId, client_id_issued_at: 0, ...metadata, metadata_document: true };
  if (metadata.token_endpoint_auth_method === "private_key_jwt") return { ...record, ...documentKeys(fields) };
  if (!metadata.grant_types.includes("authorization_code") || "jwks_uri" in fields || "jwks" in fields) {
    throw new DocumentRefused("the document does not describe a public authorization_code client");
  }
  return record;
}

/** A JWK without private or symmetric key material ("d", "k"). */
export const isPublicJwk = (key: unknown): boolean => key !== null && typeof key === "object" && !("d" in key) && !("k" in key);

/** A document may prove its client with a key (RFC 7523 private_key_jwt) or be public; it never holds a secret. */
const documentAuthMethods = ["none", "private_key_jwt"] as const;
const maxDocumentKeys = 5;

/** private_key_jwt's keys (RFC 7591 §2): a jwks_uri or an inline jwks of public keys, never both. */
function documentKeys(fields: Record<string, unknown>): Pick<ClientRecord, "jwks_uri" | "jwks"> {
  const { jwks_uri, jwks } = fields;
  if ((jwks_uri === undefined) === (jwks === undefined)) {
    throw new DocumentRefused("a private_key_jwt document needs exactly one of jwks_uri and jwks");
  }
  if (jwks_uri !== undefined) {
    if (typeof jwks_uri !== "string" || jwks_uri.length > metadataDocumentLimits.urlLength || !URL.canParse(jwks_uri)) {
      throw new DocumentRefused("jwks_uri is not a URL");
    }
    const url = new URL(jwks_uri);
    if (!["https:", "http:"].includes(url.protocol) || url.href !== jwks_uri || url.hash || url.username || url.password) {
      throw new DocumentRefused("jwks_uri must be an http(s) URL in its normal form without fragment or user information");
    }
    return { jwks_uri };
  }
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > maxDocumentKeys) {
    throw new DocumentRefused(`jwks must be a JWK Set with 1 to ${maxDocumentKeys} keys`);
  }
  if (!keys.every(isPublicJwk)) {
    throw new DocumentRefused("jwks must hold public keys only");
  }
  return { jwks: { keys } };
}
