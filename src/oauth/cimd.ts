import type { Redis } from "@upstash/redis";
import { validateClientMetadata } from "./client-metadata.ts";
import { sha256, type ClientRecord } from "./clients.ts";
import { OAuthError } from "./errors.ts";
import type { PolicyName } from "../limits/policies.ts";
import { FetchRefused, fetchableScheme, fetchJsonGuarded } from "./ssrf.ts";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that is an https URL
 * names a JSON document of client metadata, fetched on use and cached briefly. Such clients are public (PKCE, no
 * secret) or prove themselves with a key (private_key_jwt, src/oauth/client-assertion.ts), and are never stored as
 * registrations.
 */
/** Counts one more quota for the current request (a metadata document fetch); throws a Refusal past its limit. */
export type CountQuota = (policy: PolicyName) => Promise<unknown>;

export interface MetadataDocumentOptions {
  redis: Redis;
  /** Counts a fetch against the requesting IP's `oauth-client-metadata` quota; a cached answer does not count. */
  count: CountQuota;
  /** Test-only mode: http on loopback hosts is accepted and fetched. Never on by default. */
  allowLoopback: boolean;
  fetchJson?: typeof fetchJsonGuarded;
  /** Where the reason for a refusal goes; the client is never told it. */
  log?: (line: string) => void;
}

export const metadataDocumentLimits = {
  maxBytes: 5 * 1024,
  timeoutMs: 2000,
  cacheSeconds: 300,
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

const refusedDocument = () => new OAuthError("invalid_client", refusedDocumentDescription, 401);

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

/** What `oauth:cimd:<hash>` holds: the client a document described, or the mark of a recent refusal. */
type CachedDocument = ClientRecord | { refused: true };

/**
 * The client a metadata document URL names. A document is fetched at most once per cache period, accepted or
 * refused, and each fetch counts against the requesting IP's `oauth-client-metadata` quota (a rate_limited Refusal past it).
 * Every refusal is the same invalid_client; its reason is logged in one line with the URL.
 */
export async function resolveMetadataDocumentClient(clientId: string, options: MetadataDocumentOptions): Promise<ClientRecord> {
  const refuse = (reason: string) => {
    (options.log ?? console.error)(`client metadata document refused: ${JSON.stringify(clientId.slice(0, 600))}: ${reason}`);
    return refusedDocument();
  };
  let url: URL;
  try {
    url = documentUrl(clientId, options.allowLoopback);
  } catch (error) {
    if (error instanceof DocumentRefused) throw refuse(error.message);
    throw error;
  }
  const key = cacheKey(clientId);
  const cached = await options.redis.get<CachedDocument>(key);
  if (cached && "refused" in cached) throw refusedDocument();
  if (cached) return cached;

  await options.count("oauth-client-metadata");
  let record: ClientRecord;
  try {
    const limits = { maxBytes: metadataDocumentLimits.maxBytes, timeoutMs: metadataDocumentLimits.timeoutMs };
    const document = await (options.fetchJson ?? fetchJsonGuarded)(url, { ...limits, allowLoopback: options.allowLoopback });
    record = clientFromDocument(clientId, document);
  } catch (error) {
    if (!(error instanceof FetchRefused || error instanceof DocumentRefused)) throw error;
    await options.redis.set(key, { refused: true } satisfies CachedDocument, { ex: metadataDocumentLimits.refusalCacheSeconds });
    throw refuse(error.message);
  }
  await options.redis.set(key, record, { ex: metadataDocumentLimits.cacheSeconds });
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
    if (error instanceof OAuthError) throw new DocumentRefused(`the document's metadata is invalid: ${error.description}`);
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
