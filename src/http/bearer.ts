import type { ProtectedResource } from "../paths.ts";
import type { Scope } from "../oauth/metadata.ts";
import { protectedResourceMetadataUrl } from "../oauth/metadata.ts";
import { bearerChallenge, type createAccessTokenVerifier } from "../oauth/verify.ts";
import { Refusal } from "./refusal.ts";

export type Verifier = ReturnType<typeof createAccessTokenVerifier>;

/** The client a valid access token names, and the scopes it grants. */
export interface Caller {
  clientId: string;
  scopes: string[];
  token: string;
}

/**
 * The Bearer token of a request to a protected resource, checked for the scopes an operation needs. Refused as
 * invalid_token (401) or insufficient_scope (403), with the challenge that tells a client where to get a token (RFC
 * 6750, RFC 9728 `resource_metadata`, the scope to step up to).
 */
export async function requireToken(
  verifier: Verifier,
  request: Request,
  { baseUrl, resource, scopes }: { baseUrl: string; resource: ProtectedResource; scopes: Scope[] },
): Promise<Caller> {
  const check = await verifier.verifyRequest(request, scopes);
  if (check.ok) {
    const token =
      request.headers
        .get("authorization")
        ?.replace(/^Bearer +/i, "")
        .trim() ?? "";
    return { clientId: check.clientId, scopes: check.scopes, token };
  }
  const metadata = protectedResourceMetadataUrl(baseUrl, resource);
  const insufficient = check.error === "insufficient_scope";
  const challenge = bearerChallenge(metadata, insufficient ? check : { ...check, error: "invalid_token", status: 401 });
  throw new Refusal(insufficient ? "insufficient_scope" : "invalid_token", {
    detail: check.description,
    headers: { "WWW-Authenticate": challenge },
  });
}
