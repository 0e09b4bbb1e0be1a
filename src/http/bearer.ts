import type { MiddlewareHandler } from "hono";
import type { ProtectedResource } from "../paths.ts";
import type { Scope } from "../tokens/metadata.ts";
import { protectedResourceMetadataUrl } from "../tokens/metadata.ts";
import { bearerChallenge, noToken, withScopes, type createAccessTokenVerifier } from "../tokens/verify.ts";
import type { DoorContext, DoorEnv } from "./context.ts";
import { Refusal } from "./refusal.ts";

export type Verifier = ReturnType<typeof createAccessTokenVerifier>;

/** Who a valid access token names: its client, its grant (what the caller owns is keyed by it) and its scopes. */
export interface Caller {
  clientId: string;
  grantId: string;
  scopes: string[];
  token: string;
  /**
   * The address the grant counts against wherever one address's grants have a ceiling together: where the person
   * approved it (the token's `consent_address`), else the address the request came from (a client's own grant).
   */
  address: string;
}

/** The address a request's grant counts against (`Caller.address`); the request's own without a valid token. */
export function countedAddress(c: DoorContext): string {
  const check = c.get("token");
  return (check?.ok && check.consentAddress) || c.env.ip;
}

/**
 * Verifies the Bearer token a request presents, once, before anything counts or answers it: the quota counts a valid
 * token's grant, and the door asks for the scopes its operation needs. A request without Authorization has no verdict.
 */
export function identify(verifier: Verifier): MiddlewareHandler<DoorEnv> {
  return async (c, next) => {
    if (c.req.header("authorization") !== undefined) c.set("token", await verifier.verifyRequest(c.req.raw));
    await next();
  };
}

/** The caller a request's token names; none without a token or with one that was refused. */
export function callerOf(c: DoorContext): Caller | undefined {
  const check = c.get("token");
  if (!check?.ok) return undefined;
  const token = c.req
    .header("authorization")!
    .replace(/^Bearer +/i, "")
    .trim();
  return { clientId: check.clientId, grantId: check.grantId, scopes: check.scopes, token, address: countedAddress(c) };
}

/**
 * The caller, with the scopes an operation needs. Refused as invalid_token (401) or insufficient_scope (403), with the
 * challenge that tells a client where to get a token (RFC 6750, RFC 9728 `resource_metadata`, the scope to step up to).
 */
export function requireToken(
  c: DoorContext,
  { baseUrl, resource, scopes }: { baseUrl: string; resource: ProtectedResource; scopes: Scope[] },
) {
  const check = withScopes(c.get("token") ?? noToken(), scopes);
  if (check.ok) return callerOf(c)!;
  const metadata = protectedResourceMetadataUrl(baseUrl, resource);
  const insufficient = check.error === "insufficient_scope";
  const challenge = bearerChallenge(metadata, insufficient ? check : { ...check, error: "invalid_token", status: 401 });
  throw new Refusal(insufficient ? "insufficient_scope" : "invalid_token", {
    detail: check.description,
    headers: { "WWW-Authenticate": challenge },
  });
}

/** A token is optional here, but one that was sent is checked: a refused one is a 401, never an anonymous request. */
export function refuseInvalidToken(c: DoorContext, where: { baseUrl: string; resource: ProtectedResource }): Caller | undefined {
  return c.get("token") === undefined ? undefined : requireToken(c, { ...where, scopes: [] });
}
