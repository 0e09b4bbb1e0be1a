import { bearerChallenge, type createAccessTokenVerifier } from "./verify.ts";
import { protectedResourceMetadataUrl, type Scope } from "./metadata.ts";
import { type ProtectedResource } from "../paths.ts";

export type Verifier = ReturnType<typeof createAccessTokenVerifier>;

/** What a protected operation learns from the request's token, with the challenge to send when it is refused. */
export type Authorization =
  | { ok: true; clientId: string; scopes: string[] }
  | { ok: false; status: 401 | 403; code: "invalid_token" | "insufficient_scope"; detail: string; challenge: string };

/**
 * Checks the Bearer token of a request to one of the protected resources for the scopes an operation needs. A
 * malformed Authorization header counts as an invalid token (401), as the spec's error table says for /api.
 */
export async function authorize(
  verifier: Verifier,
  request: Request,
  baseUrl: string,
  resource: ProtectedResource,
  required: Scope[],
): Promise<Authorization> {
  const check = await verifier.verifyRequest(request, required);
  if (check.ok) return { ok: true, clientId: check.clientId, scopes: check.scopes };
  const metadata = protectedResourceMetadataUrl(baseUrl, resource);
  if (check.error === "insufficient_scope")
    return { ok: false, status: 403, code: "insufficient_scope", detail: check.description, challenge: bearerChallenge(metadata, check) };
  const invalid = { ...check, error: "invalid_token" as const, status: 401 as const };
  return { ok: false, status: 401, code: "invalid_token", detail: check.description, challenge: bearerChallenge(metadata, invalid) };
}
