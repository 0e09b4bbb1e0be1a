import { SignJWT } from "jose";
import type { SigningKeys } from "../tokens/keys.ts";
import { accessTokenLifetimeSeconds } from "../tokens/metadata.ts";

export interface AccessTokenGrant {
  clientId: string;
  /** The grant the token belongs to (src/oauth/grants.ts), carried as the `grant_id` claim. */
  grantId: string;
  /** Granted scopes, space-separated. */
  scope: string;
  /** The resource identifier the token is for (RFC 8707), the origin when none was asked for. */
  audience: string;
  /** Where the person approved it (src/oauth/consent-address.ts), as the `consent_address` claim; none for a client's own grant. */
  consentAddress?: string;
}

/** An RFC 9068 JWT access token signed with the first configured key. */
export async function issueAccessToken(keys: SigningKeys, issuer: string, grant: AccessTokenGrant, now: number) {
  const iat = Math.floor(now / 1000);
  const claims = { client_id: grant.clientId, grant_id: grant.grantId, scope: grant.scope };
  const token = await new SignJWT(grant.consentAddress ? { ...claims, consent_address: grant.consentAddress } : claims)
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: keys.signing.kid })
    .setIssuer(issuer)
    .setSubject(grant.clientId)
    .setAudience(grant.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + accessTokenLifetimeSeconds)
    .setJti(crypto.randomUUID())
    .sign(keys.signing.key);
  return { access_token: token, token_type: "Bearer", expires_in: accessTokenLifetimeSeconds, scope: grant.scope };
}
