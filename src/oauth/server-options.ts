import type { Redis } from "@upstash/redis";
import type { Limiter } from "../limits/limiter.ts";
import { resolveMetadataDocumentClient, looksLikeMetadataDocumentUrl, type CountQuota } from "./cimd.ts";
import { findRegisteredClient, type ClientRecord } from "./clients.ts";
import type { SigningKeys } from "../tokens/keys.ts";

/** Everything the authorization server's handlers need, passed in (no handler reads the environment). */
export interface OAuthServerOptions {
  /** The public base URL without a trailing slash; also the issuer. */
  baseUrl: string;
  keys: SigningKeys;
  /** The digest of the address a person approves from (src/oauth/consent-address.ts): their grant's address. */
  consentAddress: (ip: string) => Promise<string>;
  redis: Redis;
  limiter: Limiter;
  /** What the consent screen shows around its card: the studio's name and the site's stylesheet. */
  page: { studioName: string; stylesheet: string };
  /** Test-only: client ID metadata documents may live on loopback http (FRONTDOOR_ALLOW_LOOPBACK_CIMD). */
  allowLoopbackMetadataDocuments?: boolean;
  /** Where refused client metadata documents are explained (console.error by default). */
  log?: (line: string) => void;
  now?: () => number;
}

/**
 * A client by its client_id: a registration, or a client ID metadata document, whose fetch counts against the
 * requesting IP's quota.
 */
export function findClient(options: OAuthServerOptions, clientId: string, count: CountQuota): Promise<ClientRecord | undefined> {
  if (looksLikeMetadataDocumentUrl(clientId)) {
    return resolveMetadataDocumentClient(clientId, {
      redis: options.redis,
      count,
      allowLoopback: options.allowLoopbackMetadataDocuments ?? false,
      ...(options.log ? { log: options.log } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  }
  return findRegisteredClient(options.redis, clientId);
}
