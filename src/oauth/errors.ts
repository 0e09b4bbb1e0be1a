/**
 * OAuth error responses: RFC 6749 §5.2 at the token endpoint, RFC 7591 §3.2.2 at registration, RFC 8707 §2 for
 * `invalid_target`. Each is `{ error, error_description }` JSON that is never cached.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "unsupported_response_type"
  | "server_error"
  | "temporarily_unavailable";

/** A refusal a handler raises deep in validation and the endpoint turns into its response. */
export class OAuthError extends Error {
  override name = "OAuthError";
  readonly error: OAuthErrorCode;
  readonly description: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(error: OAuthErrorCode, description: string, status = 400, headers: Record<string, string> = {}) {
    super(`${error}: ${description}`);
    this.error = error;
    this.description = description;
    this.status = status;
    this.headers = headers;
  }
}

export const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

export const jsonResponse = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...noStore, ...headers } });

export const oauthErrorResponse = ({ error, description, status, headers }: OAuthError) =>
  jsonResponse({ error, error_description: description }, status, headers);

/** Runs a handler and turns an OAuthError into its JSON response; anything else is left to the caller. */
export async function answering(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error);
    throw error;
  }
}
