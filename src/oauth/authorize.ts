import { readForm, singleValues } from "./body.ts";
import { fromAllowedOrigin } from "../http/same-origin.ts";
import { issueCode } from "./codes.ts";
import { pageHeaders } from "../site/function-page.ts";
import { consentPage, errorPage } from "./consent-page.ts";
import {
  consentCookie,
  openAuthorizationRequest,
  readConsentCookie,
  sealAuthorizationRequest,
  type AuthorizationRequest,
} from "./consent-request.ts";
import { OAuthError } from "./errors.ts";
import { grantedAudience, grantedScope } from "./grant.ts";
import { consentGrantId } from "./grants.ts";
import { isCodeChallenge } from "./pkce.ts";
import { formActionSource, inferredApplicationType, matchRedirectUri, redirectUriProblem } from "./redirect-uri.ts";
import type { CountQuota } from "./cimd.ts";
import { findClient, type OAuthServerOptions } from "./server-options.ts";

export const maxConsentBodyBytes = 8 * 1024;

/**
 * GET /oauth/authorize shows the consent screen; POST /oauth/authorize records the decision (RFC 6749 §4.1 with
 * PKCE S256 required, RFC 9207 `iss` on every redirect). Only the person's own decision on the consent screen is
 * redirected to the client: anyone can register any redirect URI here, so none is trusted enough to be sent to without
 * a page the person has seen (RFC 9700 §4.11.2). Every problem found before that, whatever it is, is shown as the error
 * page (RFC 6749 §4.1.2.1 for an unknown client or redirect URI; the others by the same reasoning).
 */
export function createAuthorizationHandler(options: OAuthServerOptions) {
  const now = options.now ?? Date.now;
  const secure = new URL(options.baseUrl).protocol === "https:";
  const shell = options.page;
  const showError = (description: string, status = 400, error?: string) =>
    new Response(errorPage(shell, description, error), { status, headers: pageHeaders() });

  /** The person's decision (RFC 6749 §4.1.2, §4.1.2.1) back at the client's redirect URI, with `iss`. */
  const redirectBack = (redirectUri: string, params: Record<string, string | undefined>, cookie: string) => {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries({ ...params, iss: options.baseUrl }))
      if (value !== undefined) url.searchParams.set(name, value);
    const headers = new Headers({ Location: url.href, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
    headers.append("Set-Cookie", cookie);
    return new Response(null, { status: 303, headers });
  };

  async function show(request: Request, count: CountQuota): Promise<Response> {
    let values: Record<string, string>;
    try {
      ({ values } = singleValues(new URL(request.url).searchParams));
    } catch (error) {
      if (error instanceof OAuthError) return showError(error.description);
      throw error;
    }
    if (!values.client_id) return showError("The request does not name a client (client_id is missing).");
    let client;
    try {
      client = await findClient(options, values.client_id, count);
    } catch (error) {
      if (error instanceof OAuthError) return showError(error.description);
      throw error;
    }
    if (!client) return showError("The application is not registered here (unknown client_id).");
    if (!values.redirect_uri) return showError("The request does not say where to return (redirect_uri is missing).");
    const redirectUri = matchRedirectUri(client.redirect_uris, values.redirect_uri) && values.redirect_uri;
    if (!redirectUri) return showError("The return address (redirect_uri) is not one the application registered.");
    // Registrations never expire, and a cached metadata document may be older than a rule: each request meets today's.
    const problem = redirectUriProblem(redirectUri, client.application_type ?? inferredApplicationType(client.redirect_uris));
    if (problem) {
      return showError(
        `The return address (redirect_uri) was accepted before a rule that now refuses it: ${problem}. The application must register again with one that passes.`,
      );
    }

    // The redirect URI is the client's own, but the person has not seen it yet: an error is still a page, with its code.
    const fail = (error: string, description: string) => showError(description, 400, error);
    if (values.response_type !== "code") return fail("unsupported_response_type", "response_type must be code.");
    if (!client.grant_types.includes("authorization_code"))
      return fail("unauthorized_client", "This client is not registered for authorization_code.");
    if (values.code_challenge_method !== "S256" || !isCodeChallenge(values.code_challenge)) {
      return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method S256.");
    }
    let scope: string, resource: string;
    try {
      scope = grantedScope(values.scope);
      resource = grantedAudience(options.baseUrl, values.resource ? [values.resource] : undefined);
    } catch (error) {
      if (error instanceof OAuthError) return fail(error.error, error.description);
      throw error;
    }

    const authorization: AuthorizationRequest = {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope,
      resource,
      code_challenge: values.code_challenge!,
      ...(values.state !== undefined ? { state: values.state } : {}),
    };
    const { token, nonce } = await sealAuthorizationRequest(options.keys, options.baseUrl, authorization, now());
    const html = consentPage(shell, {
      clientName: client.client_name,
      ...(client.metadata_document
        ? { documentHost: new URL(client.client_id).host, provesWithKey: client.token_endpoint_auth_method === "private_key_jwt" }
        : {}),
      redirectUri,
      scope,
      requestToken: token,
    });
    const headers = new Headers(pageHeaders([formActionSource(redirectUri)]));
    headers.append("Set-Cookie", consentCookie(nonce, secure));
    return new Response(html, { status: 200, headers });
  }

  async function decide(request: Request): Promise<Response> {
    if (!fromAllowedOrigin(request, [new URL(options.baseUrl).origin])) return showError("The form was not sent from this site.", 403);
    let values: Record<string, string>;
    try {
      ({ values } = await readForm(request, maxConsentBodyBytes));
    } catch (error) {
      if (error instanceof OAuthError) return showError(error.description, error.status);
      throw error;
    }
    const opened =
      values.request &&
      (await openAuthorizationRequest(options.keys, options.baseUrl, values.request, readConsentCookie(request, secure), now()));
    if (!opened) return showError("This consent form has expired or was not sent from this site.", 403);
    // A form is answered once; a second submission (a double click, the back button) is refused.
    const first = await options.redis.set(`oauth:consent:${opened.jti}`, 1, { nx: true, ex: 600 });
    if (first === null) return showError("This consent form has already been answered.", 409);

    const { request: authorization } = opened;
    const clearCookie = consentCookie("", secure, 0);
    if (values.decision === "approve") {
      const { client_id, redirect_uri, code_challenge, scope, resource } = authorization;
      // Each approval is a grant of its own; its code is redeemed once (GETDEL), so it never makes a second token.
      const grant_id = consentGrantId();
      const code = await issueCode(options.redis, { client_id, redirect_uri, code_challenge, scope, resource, grant_id });
      return redirectBack(authorization.redirect_uri, { code, state: authorization.state }, clearCookie);
    }
    if (values.decision === "deny") {
      return redirectBack(
        authorization.redirect_uri,
        { error: "access_denied", error_description: "The request was denied.", state: authorization.state },
        clearCookie,
      );
    }
    return showError("The form did not say Approve or Deny.");
  }

  /** The request was counted against `oauth` already; showing it may also count a metadata document fetch. */
  return (request: Request, count: CountQuota) => (request.method === "POST" ? decide(request) : show(request, count));
}
