import {
  PrivateKeyJwtProvider,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { JWK } from "jose";
import { expect } from "vitest";
import { consentScreen, postConsent, type Http } from "./oauth-client.ts";

/** A fetch that notes "METHOD /path status" of every request it sends, to follow a client's steps. */
export function recording(http: Http = fetch) {
  const seen: string[] = [];
  const recorded: Http = async (input, init) => {
    const response = await http(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(`${init?.method ?? "GET"} ${url.pathname} ${response.status}`);
    return response;
  };
  return { fetch: recorded, seen };
}

/**
 * A machine client's way to a brief from /mcp alone: the 401, the protected resource metadata, the authorization
 * server's metadata, a token, and the call again, in that order.
 */
export function expectTokenAfterChallenge(seen: string[]) {
  expect(seen).toEqual(
    expect.arrayContaining([
      "POST /mcp 401",
      "GET /.well-known/oauth-protected-resource/mcp 200",
      "GET /.well-known/oauth-authorization-server 200",
      "POST /oauth/token 200",
      "POST /mcp 200",
    ]),
  );
  expect(seen.indexOf("POST /mcp 401")).toBeLessThan(seen.indexOf("POST /oauth/token 200"));
  expect(seen.indexOf("POST /oauth/token 200")).toBeLessThan(seen.lastIndexOf("POST /mcp 200"));
}

/** The MCP SDK's provider for a metadata-document client that proves itself with its ES256 key, asking for svc:brief. */
export const keyedProvider = (agent: { clientId: string; privateJwk: JWK }, issuer: string) =>
  new PrivateKeyJwtProvider({
    clientId: agent.clientId,
    privateKey: agent.privateJwk,
    algorithm: "ES256",
    expectedIssuer: issuer,
    scope: "svc:brief",
  });

/**
 * The MCP SDK's OAuth for a client with a person behind it: the SDK's state kept in memory, and the authorization URL
 * opened in the person's browser (`browser`), where they approve the consent screen; `saved.landed` is where the browser
 * then lands (the code, the state, `iss`). A client that knows its client_id (a metadata document's URL) gives it;
 * otherwise the SDK registers one.
 */
export function personApproving(options: { browser: Http; redirectUrl: string; clientMetadata: OAuthClientMetadata; clientId?: string }) {
  const saved: {
    discovery?: OAuthDiscoveryState;
    client?: StoredOAuthClientInformation;
    tokens?: StoredOAuthTokens;
    verifier?: string;
    landed?: URL;
  } = options.clientId ? { client: { client_id: options.clientId } } : {};
  const provider: OAuthClientProvider = {
    redirectUrl: options.redirectUrl,
    clientMetadata: options.clientMetadata,
    clientInformation: () => saved.client,
    saveClientInformation: (info) => void (saved.client = info),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
    codeVerifier: () => saved.verifier!,
    saveDiscoveryState: (state) => void (saved.discovery = state),
    discoveryState: () => saved.discovery,
    redirectToAuthorization: async (url) => {
      const { requestToken, cookie } = await consentScreen(url, options.browser);
      const answer = await postConsent(
        { issuer: url.origin, authorization_endpoint: `${url.origin}${url.pathname}` },
        { request: requestToken, decision: "approve" },
        cookie,
        {},
        options.browser,
      );
      saved.landed = new URL(answer.headers.get("location")!);
    },
  };
  return { provider, saved };
}
