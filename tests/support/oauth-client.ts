import { ClientCredentialsProvider } from "@modelcontextprotocol/client";
import * as oauth from "oauth4webapi";

/** oauth4webapi against the local runtime (plain http on localhost, hence allowInsecureRequests). */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/**
 * How a client reaches the server: the network by default, or a deployment in this process (`d.fetchFrom(ip)`). Every
 * helper here takes one as its last argument.
 */
export type Http = typeof fetch;

/** oauth4webapi's options for requests sent through `http`. */
export const through = (http: Http = fetch) => ({ ...insecure, [oauth.customFetch]: http }) as const;

/** What a client that knows only the base URL does first: RFC 8414 discovery. */
export async function discover(base: string, http: Http = fetch): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...through(http), algorithm: "oauth2" }));
}

export async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.Client>, http: Http = fetch) {
  const response = await oauth.dynamicClientRegistrationRequest(as, metadata, through(http));
  return oauth.processDynamicClientRegistrationResponse(response);
}

export interface AuthorizationParams {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  state?: string;
  scope?: string;
  resource?: string;
  response_type?: string;
}

export const authorizeUrl = (as: oauth.AuthorizationServer, params: AuthorizationParams) => {
  const url = new URL(as.authorization_endpoint!);
  for (const [name, value] of Object.entries({ response_type: "code", code_challenge_method: "S256", ...params })) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url;
};

/** The consent screen's form as a browser reads it: its sealed request and its nonce cookie. */
export async function consentScreen(url: URL | string, http: Http = fetch) {
  const page = await http(url, { redirect: "manual" });
  const html = await page.text();
  const requestToken = /name="request" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  if (page.status !== 200 || !requestToken || !cookie) throw new Error(`no consent form (status ${page.status})`);
  return { page, html, requestToken, cookie };
}

/** The consent screen without a browser: GET it, then POST its form back with its cookie, as the form would. */
export async function consentByHttp(
  as: oauth.AuthorizationServer,
  params: AuthorizationParams,
  decision: "approve" | "deny" = "approve",
  http: Http = fetch,
) {
  const screen = await consentScreen(authorizeUrl(as, params), http);
  const answer = await postConsent(as, { request: screen.requestToken, decision }, screen.cookie, {}, http);
  return { ...screen, answer, location: new URL(answer.headers.get("location") ?? "about:blank") };
}

export const postConsent = (
  as: oauth.AuthorizationServer,
  fields: Record<string, string>,
  cookie?: string,
  extra: Record<string, string> = {},
  http: Http = fetch,
) =>
  http(as.authorization_endpoint!, {
    method: "POST",
    redirect: "manual",
    // As a browser posts the screen's form: with the page's Origin, unless the test names an Origin or a Referer.
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(cookie ? { cookie } : {}),
      ...("origin" in extra || "referer" in extra ? {} : { origin: new URL(as.authorization_endpoint!).origin }),
      ...extra,
    },
    body: new URLSearchParams(fields),
  });

/** A confidential client and a client_credentials token for it, as a machine client gets one (through `http`). */
export async function clientCredentialsToken(
  base: string,
  scope: string,
  resource?: string,
  http: Http = fetch,
): Promise<{ token: string; clientId: string }> {
  const as = await discover(base, http);
  const client = await register(
    as,
    { client_name: "test machine client", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" },
    http,
  );
  const parameters = new URLSearchParams({ scope });
  if (resource) parameters.set("resource", resource);
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    client,
    oauth.ClientSecretPost(client.client_secret as string),
    parameters,
    through(http),
  );
  const result = await oauth.processClientCredentialsResponse(as, client, response);
  return { token: result.access_token, clientId: client.client_id };
}

/** A machine client registered at `base`'s OAuth server, as the MCP SDK's client-credentials provider that gets its tokens. */
export async function machineProvider(base: string, name: string, scope = "svc:brief") {
  const registered = await register(await discover(base), {
    client_name: `mcp test ${name}`,
    grant_types: ["client_credentials"],
    token_endpoint_auth_method: "client_secret_post",
  });
  return new ClientCredentialsProvider({
    clientId: registered.client_id,
    clientSecret: registered.client_secret as string,
    expectedIssuer: base,
    scope,
  });
}
