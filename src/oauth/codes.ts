import type { Redis } from "@upstash/redis";
import { randomToken, sha256 } from "./clients.ts";
import { authorizationCodeLifetimeSeconds } from "../tokens/metadata.ts";

/** What an authorization code stands for (RFC 6749 §4.1.2, bound per RFC 7636 and RFC 8707). */
export interface CodeBinding {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  /** The grant the approval made (src/oauth/grants.ts): the code's one token carries it. */
  grant_id: string;
  /** The digest of the address the person approved from (src/oauth/consent-address.ts): the grant's address. */
  consent_address?: string;
}

// The store keeps a hash of the code, so a dump of the store or its command log holds no usable code.
const codeKey = (code: string) => `oauth:code:${sha256(code)}`;

export async function issueCode(redis: Redis, binding: CodeBinding): Promise<string> {
  const code = randomToken(32);
  await redis.set(codeKey(code), binding, { ex: authorizationCodeLifetimeSeconds });
  return code;
}

/** Redeems a code once: GETDEL is atomic, so of any number of concurrent redemptions exactly one gets the binding. */
export async function redeemCode(redis: Redis, code: string): Promise<CodeBinding | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(code)) return undefined;
  return (await redis.getdel<CodeBinding>(codeKey(code))) ?? undefined;
}
