import { readForm, singleValues } from "./body.ts";
import { issueCode } from "./codes.ts";
import { pageHeaders } from "../site/function-page.ts";
import { conditionOf, type ConditionName } from "../http/conditions.ts";
import { refusalHeaders, type Format } from "../http/formats.ts";
import { Refusal } from "../http/refusal.ts";
import type { PageShell } from "../site/function-page.ts";
import { consentPage, errorPage } from "./consent-page.ts";
import {
  consentCookie,
  openAuthorizationRequest,
  readConsentCookie,
  sealAuthorizationRequest,
  type AuthorizationRequest,
} from "./consent-request.ts";
import { grantedAudience, grantedScope } from "./grant.ts";
import { consentGrantId } from "./grants.ts";
import { isCodeChallenge } from "./pkce.ts";
import { formActionSource, inferredApplicationType, matchRedirectUri, redirectUriProblem } from "./redirect-uri.ts";
import type { CountQuota } from "./cimd.ts";
import { findClient, type OAuthServerOptions } from "./server-options.ts";

export const maxConsentBodyBytes = 8 * 1024;

/**
 * What RFC 6749 §4.1.2.1 would send to a redirect URI once the client and that URI are known: the page names its code
 * for the application's developer. Anything found before that, or about the consent form, is the page alone.
 */
const codeOnPage = new Set<ConditionName>([
  "unsupported_response_type",
  "unauthorized_client",
  "pkce_required",
  "invalid_scope",
  "invalid_target",
]);

/** Every refusal at /oauth/authorize, the endpoint's own and the door's (quota, method, outage), as the error page. */
export const authorizationErrorPage =
  (shell: PageShell): Format =>
  (refusal) => {
    const condition = conditionOf(refusal.condition);
    const { detail, resolution } = refusal.options;
    const description = detail ? [detail, resolution].filter(Boolean).join(" ") : `${condition.when} ${condition.resolution}`;
    const error = codeOnPage.has(refusal.condition) ? condition.oauth : undefined;
    const all = new Headers(pageHeaders());
    for (const [name, value] of Object.entries(refusalHeaders(refusal))) all.set(name, value);
    return new Response(errorPage(shell, description, error), { status: condition.status, headers: all });
  };

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
  const untrusted = (detail: string) => new Refusal("unknown_client_or_redirect_uri", { detail });

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
    const { values } = singleValues(new URL(request.url).searchParams);
    if (!values.client_id) throw untrusted("The request does not name a client (client_id is missing).");
    const client = await findClient(options, values.client_id, count).catch((error: unknown) => {
      // A refused metadata document is an unknown client here, shown with the token endpoint's words for it.
      throw error instanceof Refusal && error.condition === "invalid_client" ? untrusted(error.options.detail!) : error;
    });
    if (!client) throw untrusted("The application is not registered here (unknown client_id).");
    if (!values.redirect_uri) throw untrusted("The request does not say where to return (redirect_uri is missing).");
    const redirectUri = matchRedirectUri(client.redirect_uris, values.redirect_uri) && values.redirect_uri;
    if (!redirectUri) throw untrusted("The return address (redirect_uri) is not one the application registered.");
    // Registrations never expire, and a cached metadata document may be older than a rule: each request meets today's.
    const problem = redirectUriProblem(redirectUri, client.application_type ?? inferredApplicationType(client.redirect_uris));
    if (problem) {
      throw untrusted(
        `The return address (redirect_uri) was accepted before a rule that now refuses it: ${problem}. The application must register again with one that passes.`,
      );
    }

    // The redirect URI is the client's own, but the person has not seen it yet: an error is still a page, with its code.
    if (values.response_type !== "code") throw new Refusal("unsupported_response_type", { detail: "response_type must be code." });
    if (!client.grant_types.includes("authorization_code"))
      throw new Refusal("unauthorized_client", { detail: "This client is not registered for authorization_code." });
    if (values.code_challenge_method !== "S256" || !isCodeChallenge(values.code_challenge)) {
      throw new Refusal("pkce_required", { detail: "PKCE is required: send code_challenge with code_challenge_method S256." });
    }
    const scope = grantedScope(values.scope);
    const resource = grantedAudience(options.baseUrl, values.resource ? [values.resource] : undefined);

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

  async function decide(request: Request, ip: string): Promise<Response> {
    const { values } = await readForm(request, maxConsentBodyBytes);
    const opened =
      values.request &&
      (await openAuthorizationRequest(options.keys, options.baseUrl, values.request, readConsentCookie(request, secure), now()));
    if (!opened) throw new Refusal("consent_expired", { detail: "This consent form has expired or was not sent from this site." });
    // A form is answered once; a second submission (a double click, the back button) is refused.
    const first = await options.redis.set(`oauth:consent:${opened.jti}`, 1, { nx: true, ex: 600 });
    if (first === null) throw new Refusal("consent_answered", { detail: "This consent form has already been answered." });

    const { request: authorization } = opened;
    const clearCookie = consentCookie("", secure, 0);
    if (values.decision === "approve") {
      const { client_id, redirect_uri, code_challenge, scope, resource } = authorization;
      // Each approval is a grant of its own; its code is redeemed once (GETDEL), so it never makes a second token.
      const grant_id = consentGrantId();
      // The person's own browser sends this form: its address is the grant's, whatever address its client calls from.
      const consent_address = await options.consentAddress(ip);
      const binding = { client_id, redirect_uri, code_challenge, scope, resource, grant_id, consent_address };
      const code = await issueCode(options.redis, binding);
      return redirectBack(authorization.redirect_uri, { code, state: authorization.state }, clearCookie);
    }
    if (values.decision === "deny") {
      return redirectBack(
        authorization.redirect_uri,
        { error: "access_denied", error_description: "The request was denied.", state: authorization.state },
        clearCookie,
      );
    }
    throw new Refusal("invalid_oauth_request", { detail: "The form did not say Approve or Deny." });
  }

  /** The request was counted against `oauth` already; showing it may also count a metadata document fetch. */
  return (request: Request, count: CountQuota, ip: string) => (request.method === "POST" ? decide(request, ip) : show(request, count));
}
