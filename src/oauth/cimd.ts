import type { Redis } from "@upstash/redis";
import { validateClientMetadata } from "./client-metadata.ts";
import { sha256, type ClientRecord } from "./clients.ts";
import { OAuthError } from "./errors.ts";
import { FetchRefused, fetchJsonGuarded } from "./ssrf.ts";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that is an https URL
 * names a JSON document of client metadata, fetched on use and cached briefly. Such clients are public (PKCE, no
 * secret) and never stored as registrations.
 */
export interface MetadataDocumentOptions {
  redis: Redis;
  /** Test-only mode: http on loopback hosts is accepted and fetched. Never on by default. */
  allowLoopback: boolean;
  fetchJson?: typeof fetchJsonGuarded;
}

export const metadataDocumentLimits = { maxBytes: 5 * 1024, timeoutMs: 2000, cacheSeconds: 300, urlLength: 512 } as const;

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Whether the client_id is meant as a metadata document URL (then it must also be a valid one). */
export const looksLikeMetadataDocumentUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

/** The draft's §3 rules for the URL itself: https, a path, no dot segments, no fragment, no user information. */
function documentUrl(clientId: string, allowLoopback: boolean): URL {
  const refuse = (why: string) => new OAuthError("invalid_client", `The client_id is not a usable metadata document URL: ${why}.`, 401);
  if (clientId.length > metadataDocumentLimits.urlLength) throw refuse("it is too long");
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw refuse("it is not a URL");
  }
  const loopbackHttp = allowLoopback && url.protocol === "http:" && loopbackHosts.has(url.hostname);
  if (url.protocol !== "https:" && !loopbackHttp) throw refuse("it must use https");
  if (url.href !== clientId) throw refuse("it must be written in its normal form");
  if (url.pathname === "/" || /\/\.\.?(\/|$)/.test(url.pathname)) throw refuse("it needs a path without dot segments");
  if (url.hash || clientId.includes("#")) throw refuse("it must not have a fragment");
  if (url.username || url.password) throw refuse("it must not carry user information");
  return url;
}

const cacheKey = async (clientId: string) => `oauth:cimd:${await sha256(clientId)}`;

export async function resolveMetadataDocumentClient(clientId: string, options: MetadataDocumentOptions): Promise<ClientRecord> {
  const url = documentUrl(clientId, options.allowLoopback);
  const key = await cacheKey(clientId);
  const cached = await options.redis.get<ClientRecord>(key);
  if (cached) return cached;

  let document: unknown;
  try {
    document = await (options.fetchJson ?? fetchJsonGuarded)(url, { ...metadataDocumentLimits, allowLoopback: options.allowLoopback });
  } catch (error) {
    if (error instanceof FetchRefused)
      throw new OAuthError("invalid_client", `The client metadata document was refused: ${error.message}.`, 401);
    throw error;
  }
  const record = clientFromDocument(clientId, document);
  await options.redis.set(key, record, { ex: metadataDocumentLimits.cacheSeconds });
  return record;
}

/** The document's rules (draft §4): its client_id is its own URL exactly, no shared secret, public client metadata. */
export function clientFromDocument(clientId: string, document: unknown): ClientRecord {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new OAuthError("invalid_client", "The client metadata document is not a JSON object.", 401);
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId)
    throw new OAuthError("invalid_client", "The client metadata document's client_id is not its own URL.", 401);
  if ("client_secret" in fields || "client_secret_expires_at" in fields) {
    throw new OAuthError("invalid_client", "A client metadata document must not carry a client secret.", 401);
  }
  let metadata;
  try {
    metadata = validateClientMetadata(fields, "none");
  } catch (error) {
    if (error instanceof OAuthError)
      throw new OAuthError("invalid_client", `The client metadata document is invalid: ${error.description}`, 401);
    throw error;
  }
  if (metadata.token_endpoint_auth_method !== "none" || !metadata.grant_types.includes("authorization_code")) {
    throw new OAuthError(
      "invalid_client",
      "A metadata document client must be a public authorization_code client (token_endpoint_auth_method none).",
      401,
    );
  }
  return { client_id: clientId, client_id_issued_at: 0, ...metadata, metadata_document: true };
}
