import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import type { JSONWebKeySet } from "jose";
import type { ClientMetadata } from "./client-metadata.ts";
import { toBase64url } from "../base64url.ts";
import { Refusal } from "../http/refusal.ts";

/**
 * Registered clients, one record per client in Upstash (`oauth:client:<client_id>`, no expiry: registrations never
 * expire). A client secret is shown once, at registration; only its SHA-256 is stored.
 */
export interface ClientRecord extends ClientMetadata {
  client_id: string;
  client_id_issued_at: number;
  client_secret_sha256?: string;
  /** True for a client whose client_id is the URL of its metadata document (CIMD); it is never stored. */
  metadata_document?: true;
  /** Where a metadata document client that authenticates with private_key_jwt keeps its public keys (one of the two). */
  jwks_uri?: string;
  jwks?: JSONWebKeySet;
}

export const clientKey = (clientId: string) => `oauth:client:${clientId}`;
const registeredClientId = /^fdc_[A-Za-z0-9_-]{22}$/;

export const randomToken = (bytes: number) => toBase64url(crypto.getRandomValues(new Uint8Array(bytes)));
/**
 * SHA-256 as base64url. Node's synchronous hash, not Web Crypto's `digest`: a digest there is a hop to the thread pool
 * and back, which cost a token request more than the hashing itself (docs/performance.md).
 */
export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/** Compares two strings in time that depends only on their length (both are digests of the same length here). */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export async function registerClient(redis: Redis, metadata: ClientMetadata, now: number) {
  const client_id = `fdc_${randomToken(16)}`;
  const secret = metadata.token_endpoint_auth_method === "none" ? undefined : `fds_${randomToken(32)}`;
  const record: ClientRecord = {
    client_id,
    client_id_issued_at: Math.floor(now / 1000),
    ...metadata,
    ...(secret ? { client_secret_sha256: sha256(secret) } : {}),
  };
  // NX: a collision of 128 random bits is not expected, but it must never overwrite another client.
  const stored = await redis.set(clientKey(client_id), record, { nx: true });
  if (stored === null) throw new Error("client_id collision");
  return { record, secret };
}

export async function findRegisteredClient(redis: Redis, clientId: string): Promise<ClientRecord | undefined> {
  if (!registeredClientId.test(clientId)) return undefined;
  return (await redis.get<ClientRecord>(clientKey(clientId))) ?? undefined;
}

/**
 * Registrations as the token endpoint reads them. A registration never changes (written once, SET NX), so a record
 * found is kept for a minute by this instance: a client asking again within it costs no store command. A registration
 * deleted from Upstash by hand is refused by every instance a minute later at most. A client_id not found is looked
 * up every time, since another instance may have just registered it.
 */
export function registeredClientsKeptAMinute(redis: Redis, { now = Date.now, keepMs = 60_000, max = 1000 } = {}) {
  const kept = new Map<string, { record: ClientRecord; until: number }>();
  return async (clientId: string): Promise<ClientRecord | undefined> => {
    const hit = kept.get(clientId);
    if (hit && hit.until > now()) return hit.record;
    kept.delete(clientId);
    const record = await findRegisteredClient(redis, clientId);
    if (record) {
      // The oldest entry goes first when full: Map keeps insertion order.
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(clientId, { record, until: now() + keepMs });
    }
    return record;
  };
}

/** RFC 6749 §5.2's challenge for a client whose authentication failed. */
export const basicChallenge = { "WWW-Authenticate": 'Basic realm="oauth"' };

/**
 * Client authentication at the token endpoint (RFC 6749 §2.3): client_secret_post for confidential clients, the bare
 * client_id for public ones. Every failure is the same invalid_client, so nothing tells which part was wrong.
 */
export async function authenticateClient(client: ClientRecord | undefined, secret: string | undefined): Promise<ClientRecord> {
  const refuse = () => new Refusal("invalid_client", { detail: "Client authentication failed.", headers: basicChallenge });
  if (!client) {
    // Hash anyway, so an unknown client_id answers in about the same time as a wrong secret.
    if (secret) sha256(secret);
    throw refuse();
  }
  if (client.token_endpoint_auth_method === "none") {
    if (secret)
      throw new Refusal("invalid_client", { detail: "This client is public (token_endpoint_auth_method none): send no client_secret." });
    return client;
  }
  if (!secret || !client.client_secret_sha256 || !constantTimeEqual(sha256(secret), client.client_secret_sha256)) throw refuse();
  return client;
}

/** The registration response (RFC 7591 §3.2.1): the metadata as registered, the secret once, never the hash. */
export function registrationResponse(record: ClientRecord, secret: string | undefined) {
  const { client_secret_sha256: _hash, metadata_document: _document, ...metadata } = record;
  return { ...metadata, ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) };
}
