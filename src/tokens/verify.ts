import type { JSONWebKeySet, JWTVerifyGetKey } from "jose";
import { resourceIdentifiers, type Scope } from "./metadata.ts";
import { lazy } from "../lazy.ts";

/**
 * A grant is one person's approval of one client (a consent), or a client that proves itself at the token endpoint and
 * asks for itself (client_credentials). Everything a caller owns (A2A tasks, Idempotency-Keys and repeats, MCP request
 * state, quotas) is keyed by its grant, never by a client_id that others can also get tokens for. The id travels in every
 * access token as the `grant_id` claim: opaque, and the same for every token of the grant.
 */
export const grantIdPattern = /^g[ac]_[A-Za-z0-9_-]{22}$/;

/** The digest of the address a person approved a client from (src/oauth/consent-address.ts), the `consent_address` claim. */
export const consentAddressPattern = /^ca_[A-Za-z0-9_-]{22}$/;

/**
 * The one access-token verifier every protected resource uses (REST briefs, MCP, A2A). RFC 9068 §4 and RFC 8725:
 * ES256 only, `typ: at+jwt`, our issuer, an audience among our resources (a token for any of them is accepted at all
 * of them, spec: Resource indicator), unexpired, required claims present; then the scopes the operation needs.
 */
export interface VerifiedAccessToken {
  ok: true;
  clientId: string;
  /** The grant the token belongs to (src/oauth/grants.ts): what the caller owns is keyed by it. */
  grantId: string;
  scopes: string[];
  audience: string;
  /** Where the person approved the grant: every ceiling of one address counts the grant there. None for a client's own grant. */
  consentAddress?: string;
}

export interface RejectedAccessToken {
  ok: false;
  /** RFC 6750 §3.1; `missing` means no credentials were sent, and the challenge then names no error. */
  error: "invalid_token" | "insufficient_scope" | "invalid_request";
  status: 400 | 401 | 403;
  description: string;
  missing?: true;
  /** The scopes the request needs, for the challenge. */
  requiredScopes: Scope[];
}

export type AccessTokenCheck = VerifiedAccessToken | RejectedAccessToken;

export interface VerifierOptions {
  baseUrl: string;
  /** The published key set, or a jose key resolver over it (createRemoteJWKSet for a verifier elsewhere). */
  jwks: JSONWebKeySet | JWTVerifyGetKey;
  /** Allowed clock skew for exp, nbf and iat. */
  clockToleranceSeconds?: number;
  now?: () => number;
}

/** Longer tokens are refused unparsed: ours are well under 1 KB. */
const maxTokenLength = 4096;

export function createAccessTokenVerifier({ baseUrl, jwks, clockToleranceSeconds = 30, now = Date.now }: VerifierOptions) {
  const audiences = resourceIdentifiers(baseUrl);
  // jose loads with the first token, not with the door: a request without a token never needs it.
  const load = lazy(() =>
    import("./jose.ts").then((jose) => ({ jose, getKey: typeof jwks === "function" ? jwks : jose.createLocalJWKSet(jwks) })),
  );

  /** Verifies a bare token; `requiredScopes` are what the operation needs. */
  async function verifyToken(token: string, requiredScopes: Scope[] = []): Promise<AccessTokenCheck> {
    const reject = (description: string): RejectedAccessToken => ({
      ok: false,
      error: "invalid_token",
      status: 401,
      description,
      requiredScopes,
    });
    if (token.length > maxTokenLength) return reject("The access token is too long.");
    const { jose, getKey } = await load();
    let payload;
    try {
      ({ payload } = await jose.jwtVerify(token, getKey, {
        algorithms: ["ES256"],
        typ: "at+jwt",
        issuer: baseUrl,
        audience: audiences,
        requiredClaims: ["iss", "sub", "aud", "exp", "iat", "jti", "client_id"],
        clockTolerance: clockToleranceSeconds,
        currentDate: new Date(now()),
      }));
    } catch (error) {
      return reject(describe(error, jose.errors));
    }
    if ((payload.iat ?? 0) > now() / 1000 + clockToleranceSeconds) return reject("The access token was issued in the future.");
    const { client_id: clientId, grant_id: grantId, scope = "", consent_address: consentAddress } = payload;
    if (typeof clientId !== "string" || typeof scope !== "string" || payload.sub !== clientId)
      return reject("The access token's claims are malformed.");
    // A token issued before grants existed names only its client, which others can also get tokens for: never honoured.
    if (grantId === undefined) return reject("The access token predates grant identifiers; get a new one.");
    if (typeof grantId !== "string" || !grantIdPattern.test(grantId)) return reject("The access token's claims are malformed.");
    if (consentAddress !== undefined && (typeof consentAddress !== "string" || !consentAddressPattern.test(consentAddress)))
      return reject("The access token's claims are malformed.");
    const scopes = scope.split(" ").filter(Boolean);
    const audience = (Array.isArray(payload.aud) ? payload.aud : [payload.aud]).find((a): a is string => !!a && audiences.includes(a))!;
    const verified: VerifiedAccessToken = { ok: true, clientId, grantId, scopes, audience, ...(consentAddress ? { consentAddress } : {}) };
    return withScopes(verified, requiredScopes);
  }

  /** Verifies the Authorization header of a request (RFC 6750 §2.1; tokens are never taken from the query or body). */
  async function verifyRequest(request: Request, requiredScopes: Scope[] = []): Promise<AccessTokenCheck> {
    const header = request.headers.get("authorization");
    if (!header) return noToken(requiredScopes);
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match)
      return {
        ok: false,
        error: "invalid_request",
        status: 400,
        description: "Send the token as Authorization: Bearer <token>.",
        requiredScopes,
      };
    return verifyToken(match[1]!, requiredScopes);
  }

  return { verifyToken, verifyRequest };
}

/** The check of a request that sent no credentials: its challenge names no error (RFC 6750 §3.1). */
export const noToken = (requiredScopes: Scope[] = []): RejectedAccessToken => ({
  ok: false,
  error: "invalid_token",
  status: 401,
  description: "No access token was sent.",
  missing: true,
  requiredScopes,
});

/**
 * The check for an operation that needs `requiredScopes`: a valid token without them is insufficient_scope (403), and a
 * refusal names them for the challenge. A door that verified a token before it knew the operation asks this later.
 */
export function withScopes(check: AccessTokenCheck, requiredScopes: Scope[]): AccessTokenCheck {
  if (!check.ok) return { ...check, requiredScopes };
  const missing = requiredScopes.filter((s) => !check.scopes.includes(s));
  if (missing.length === 0) return check;
  return {
    ok: false,
    error: "insufficient_scope",
    status: 403,
    description: `The access token lacks the scope ${missing.join(" ")}.`,
    requiredScopes,
  };
}

function describe(error: unknown, errors: typeof import("./jose.ts").errors): string {
  if (error instanceof errors.JWTExpired) return "The access token has expired.";
  if (error instanceof errors.JWTClaimValidationFailed) return `The access token's ${error.claim} claim is not valid here.`;
  if (error instanceof errors.JWKSNoMatchingKey) return "The access token was not signed by a published key.";
  if (error instanceof errors.JOSEAlgNotAllowed) return "The access token must be signed with ES256.";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The access token's signature is not valid.";
  return "The access token is malformed.";
}

/** A quoted-string parameter value (RFC 9110 §5.6.4); descriptions keep to the characters RFC 6750 §3 allows. */
const quoted = (value: string) => `"${value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "")}"`;

/**
 * The `WWW-Authenticate: Bearer ...` challenge (RFC 6750 §3, RFC 9728 §5.1) for a rejected token: no `error` when no
 * credentials were sent, the scopes the request needs, and where the resource's metadata lives.
 */
export function bearerChallenge(resourceMetadataUrl: string, check?: RejectedAccessToken): string {
  const params: string[] = [];
  if (check && !check.missing) {
    params.push(`error=${quoted(check.error)}`, `error_description=${quoted(check.description)}`);
  }
  if (check && check.requiredScopes.length > 0) params.push(`scope=${quoted(check.requiredScopes.join(" "))}`);
  params.push(`resource_metadata=${quoted(resourceMetadataUrl)}`);
  return `Bearer ${params.join(", ")}`;
}
