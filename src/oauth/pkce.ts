import { constantTimeEqual, sha256 } from "./clients.ts";

/** RFC 7636: S256 only. A challenge is BASE64URL(SHA-256(verifier)), 43 characters; a verifier is 43-128 unreserved. */
export const isCodeChallenge = (value: string | undefined) => !!value && /^[A-Za-z0-9_-]{43}$/.test(value);
export const isCodeVerifier = (value: string | undefined) => !!value && /^[A-Za-z0-9\-._~]{43,128}$/.test(value);

export function verifierMatches(verifier: string, challenge: string): boolean {
  return isCodeVerifier(verifier) && constantTimeEqual(sha256(verifier), challenge);
}
