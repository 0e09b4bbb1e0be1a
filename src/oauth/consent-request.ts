import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import { constantTimeEqual, randomToken, sha256 } from "./clients.ts";
import type { SigningKeys } from "../tokens/keys.ts";
import { oauthPaths, absolute } from "../paths.ts";

/**
 * CSRF protection for the consent form. GET /oauth/authorize seals the validated authorization request into a
 * short-lived token signed with the server's key (so POST cannot change a single parameter) and sets a random nonce
 * in an HttpOnly, SameSite=Strict cookie whose hash the token carries (double submit). Its `typ` and `aud` keep it
 * from ever passing as an access token, and an access token from passing as it.
 */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  scope: string;
  resource: string;
  code_challenge: string;
  state?: string;
}

const typ = "oauth-authz-req+jwt";
export const consentLifetimeSeconds = 600;

export const consentCookieName = (secure: boolean) => (secure ? "__Host-oauth_consent" : "oauth_consent");

export function consentCookie(value: string, secure: boolean, maxAge = consentLifetimeSeconds) {
  return [
    `${consentCookieName(secure)}=${value}`,
    "Path=/",
    `Max-Age=${maxAge}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function readConsentCookie(request: Request, secure: boolean): string | undefined {
  const name = consentCookieName(secure);
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

export async function sealAuthorizationRequest(keys: SigningKeys, baseUrl: string, request: AuthorizationRequest, now: number) {
  const nonce = randomToken(32);
  const iat = Math.floor(now / 1000);
  const token = await new SignJWT({ req: request, nonce_hash: sha256(nonce) })
    .setProtectedHeader({ alg: "ES256", typ, kid: keys.signing.kid })
    .setIssuer(baseUrl)
    .setAudience(absolute(baseUrl, oauthPaths.authorize))
    .setIssuedAt(iat)
    .setExpirationTime(iat + consentLifetimeSeconds)
    .setJti(crypto.randomUUID())
    .sign(keys.signing.key);
  return { token, nonce };
}

/** The sealed request if the token is ours, fresh, and matches the cookie's nonce; undefined otherwise. */
export async function openAuthorizationRequest(keys: SigningKeys, baseUrl: string, token: string, nonce: string | undefined, now: number) {
  if (!nonce || token.length > 8192) return undefined;
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys.publicJwks), {
      algorithms: ["ES256"],
      typ,
      issuer: baseUrl,
      audience: absolute(baseUrl, oauthPaths.authorize),
      requiredClaims: ["exp", "jti"],
      currentDate: new Date(now),
    });
    const hash = payload.nonce_hash;
    if (typeof hash !== "string" || !constantTimeEqual(hash, sha256(nonce))) return undefined;
    return { request: payload.req as AuthorizationRequest, jti: payload.jti! };
  } catch {
    return undefined;
  }
}
