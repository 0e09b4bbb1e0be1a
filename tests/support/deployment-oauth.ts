import * as oauth from "oauth4webapi";
import type { Deployment } from "./deployment.ts";
import { form, json } from "./calls.ts";

export const redirectUri = "http://127.0.0.1/callback";

/** A confidential client that may use both grants, registered through POST /oauth/register. */
export async function registerClient(d: Deployment) {
  const res = await d.oauth(
    "/oauth/register",
    json({
      client_name: "Resilience client",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "client_credentials"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    }),
  );
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { client_id: string; client_secret: string };
}

export const authorizePath = (clientId: string, challenge: string, state = "s") =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "svc:brief",
    state,
  })}`;

/** The consent screen: its sealed request and nonce cookie, ready to be posted back. */
export async function consentForm(d: Deployment, clientId: string, verifier = oauth.generateRandomCodeVerifier()) {
  const page = await d.oauth(authorizePath(clientId, await oauth.calculatePKCECodeChallenge(verifier)));
  const html = await page.text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  if (page.status !== 200 || !request || !cookie) throw new Error(`no consent form (status ${page.status})`);
  return { request, cookie, verifier };
}

export const approve = (d: Deployment, consent: { request: string; cookie: string }) =>
  d.oauth("/oauth/authorize", form({ request: consent.request, decision: "approve" }, { cookie: consent.cookie, origin: d.baseUrl }));

/** An approved authorization code and its PKCE verifier. */
export async function approvedCode(d: Deployment, clientId: string) {
  const consent = await consentForm(d, clientId);
  const answer = await approve(d, consent);
  const code = new URL(answer.headers.get("location") ?? "about:blank").searchParams.get("code");
  if (!code) throw new Error(`no code (status ${answer.status})`);
  return { code, verifier: consent.verifier };
}

/**
 * Redeems a code at /oauth/token (from a new address unless one is given); a client without a secret (a metadata
 * document client) is a public one.
 */
export const redeem = (d: Deployment, client: { client_id: string; client_secret?: string }, code: string, verifier: string, ip?: string) =>
  d.oauth(
    "/oauth/token",
    form({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      ...(client.client_secret ? { client_secret: client.client_secret } : {}),
    }),
    ip,
  );
