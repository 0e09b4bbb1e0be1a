import { Redis } from "@upstash/redis";
import { createRemoteJWKSet, customFetch, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientKey } from "../../src/oauth/clients.ts";
import { createAccessTokenVerifier } from "../../src/tokens/verify.ts";
import { escapeHtml } from "../../src/site/function-page.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import {
  authorizeUrl,
  consentByHttp,
  consentScreen,
  discover,
  postConsent,
  register,
  through,
  type Http,
} from "../support/oauth-client.ts";

/**
 * The authorization server in-process, built as functions/oauth.ts and functions/jwks.ts build it, driven by oauth4webapi
 * through a fetch that routes into the deployment: a machine client's token verified against the served key set, the
 * authorization code flow with PKCE for a registered public client and every refusal on its way, redirect URIs matched
 * as written and named as the person will see them, the consent page's defences, registrations refused, and hostile
 * bodies. tests/doors/oauth-clients.test.ts has today's hosted clients and metadata document
 * clients, tests/doors/oauth-sdk.test.ts the MCP SDK's own OAuth, tests/doors/oauth-limits.test.ts the quotas;
 * tests/unit/oauth-*.test.ts the handlers' details (the token endpoint's refusals of a machine client among them);
 * tests/runtime/oauth.test.ts and tests/browser/oauth.test.ts the flows through `npm start` and Chromium.
 */
let d: Deployment;
let as: oauth.AuthorizationServer;
let publicClient: oauth.Client;
const redirectUri = "http://127.0.0.1/callback";
/** A loopback listener's port is chosen at run time (RFC 8252 §7.3): the registration names none. */
const listenerUri = "http://127.0.0.1:49152/callback";
const statuses: number[] = [];

/** A client's fetch from an address of its own; every status it sees is kept, so that none may be a 5xx. */
function client(): Http {
  const http = d.fetchFrom();
  return async (input, init) => {
    const response = await http(input, init);
    statuses.push(response.status);
    return response;
  };
}

beforeAll(async () => {
  d = await startDeployment("local");
  as = await discover(d.baseUrl, client());
  publicClient = await register(
    as,
    { client_name: "Doors public client", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" },
    client(),
  );
});
afterAll(async () => {
  await d.close();
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});

const keySet = (http: Http) => createRemoteJWKSet(new URL(as.jwks_uri!), { [customFetch]: http });
const tokenForm = (http: Http, fields: Record<string, string>) =>
  http(as.token_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
/** An authorization request with the given parameters (undefined ones left out), answered without following redirects. */
const authorizeWith = (http: Http, params: Record<string, string | undefined>) =>
  http(
    `${as.authorization_endpoint}?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))}`,
    { redirect: "manual" },
  );

async function approvedCode(http: Http, verifier: string, extra: Record<string, string> = {}) {
  const state = oauth.generateRandomState();
  const { location } = await consentByHttp(
    as,
    {
      client_id: publicClient.client_id,
      redirect_uri: listenerUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      state,
      ...extra,
    },
    "approve",
    http,
  );
  return { location, state, code: location.searchParams.get("code")! };
}

describe("client credentials", () => {
  it("registers, gets a token with oauth4webapi and verifies it offline against the served key set", async () => {
    const http = client();
    const machine = await register(
      as,
      { client_name: "Doors M2M", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" },
      http,
    );
    expect(machine.client_secret_expires_at).toBe(0);
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      machine,
      oauth.ClientSecretPost(machine.client_secret as string),
      { scope: "svc:brief", resource: `${d.baseUrl}/a2a/v1` },
      through(http),
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const token = await oauth.processClientCredentialsResponse(as, machine, response);
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "svc:read svc:brief" });

    const { payload, protectedHeader } = await jwtVerify(token.access_token, keySet(http), {
      issuer: as.issuer,
      audience: `${d.baseUrl}/a2a/v1`,
      typ: "at+jwt",
      algorithms: ["ES256"],
    });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: machine.client_id, client_id: machine.client_id, scope: "svc:read svc:brief" });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.jti).toBeTruthy();

    const verifier = createAccessTokenVerifier({ baseUrl: d.baseUrl, jwks: keySet(http) });
    expect(await verifier.verifyToken(token.access_token, ["svc:brief"])).toMatchObject({
      ok: true,
      clientId: machine.client_id,
      audience: `${d.baseUrl}/a2a/v1`,
    });
  });
});

describe("authorization code with PKCE", () => {
  it("runs the whole flow: consent, iss and state in the redirect, code exchange, a token for /mcp", async () => {
    const http = client();
    const verifier = oauth.generateRandomCodeVerifier();
    const { location, state } = await approvedCode(http, verifier, { scope: "svc:brief", resource: `${d.baseUrl}/mcp` });
    expect(location.origin + location.pathname).toBe(listenerUri);
    const params = oauth.validateAuthResponse(as, publicClient, location, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      publicClient,
      oauth.None(),
      params,
      listenerUri,
      verifier,
      through(http),
    );
    const token = await oauth.processAuthorizationCodeResponse(as, publicClient, response);
    expect(token.scope).toBe("svc:read svc:brief");
    const { payload } = await jwtVerify(token.access_token, keySet(http), {
      issuer: as.issuer,
      audience: `${d.baseUrl}/mcp`,
      typ: "at+jwt",
    });
    expect(payload.client_id).toBe(publicClient.client_id);
  });

  it("refuses a wrong verifier, and then the code is spent", async () => {
    const http = client();
    const verifier = oauth.generateRandomCodeVerifier();
    const { code } = await approvedCode(http, verifier);
    const redeem = (code_verifier: string) =>
      tokenForm(http, {
        grant_type: "authorization_code",
        code,
        code_verifier,
        redirect_uri: listenerUri,
        client_id: publicClient.client_id,
      });
    const wrong = await redeem(oauth.generateRandomCodeVerifier());
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    expect(await (await redeem(verifier)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a redirect_uri at the token endpoint other than the authorization request's", async () => {
    const http = client();
    const verifier = oauth.generateRandomCodeVerifier();
    const { code } = await approvedCode(http, verifier);
    const res = await tokenForm(http, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:49153/callback",
      client_id: publicClient.client_id,
    });
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("shows every problem found before the consent screen as the error page with its code, never a redirect", async () => {
    const http = client();
    // A client registered with a redirect URI but not for authorization_code.
    const machine = await register(
      as,
      { grant_types: ["client_credentials"], redirect_uris: [redirectUri], token_endpoint_auth_method: "client_secret_post" },
      http,
    );
    const cases: [Record<string, string | undefined>, string, RegExp][] = [
      [{ response_type: "token" }, "unsupported_response_type", /response_type must be code/],
      [{ response_type: undefined }, "unsupported_response_type", /response_type must be code/],
      [{ response_type: "code token" }, "unsupported_response_type", /response_type must be code/],
      [{ client_id: machine.client_id }, "unauthorized_client", /not registered for authorization_code/],
      [{ code_challenge_method: "plain" }, "invalid_request", /PKCE is required/],
      [{ code_challenge: undefined }, "invalid_request", /PKCE is required/],
      [{ code_challenge_method: undefined }, "invalid_request", /PKCE is required/],
      [{ code_challenge: "short" }, "invalid_request", /PKCE is required/],
      [{ scope: "svc:admin" }, "invalid_scope", /Unknown scope svc:admin/],
      [{ resource: "https://evil.example/mcp" }, "invalid_target", /resource must be one of/],
      [{ resource: "not a url" }, "invalid_target", /resource must be one of/],
    ];
    for (const [params, code, description] of cases) {
      const res = await authorizeWith(http, {
        response_type: "code",
        client_id: publicClient.client_id,
        redirect_uri: redirectUri,
        code_challenge_method: "S256",
        code_challenge: "a".repeat(43),
        state: "s1",
        ...params,
      });
      expect([res.status, res.headers.get("location")], JSON.stringify(params)).toEqual([400, null]);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("set-cookie"), "no consent form was opened").toBeNull();
      const page = await res.text();
      expect(page).toContain("This request cannot be completed");
      expect(page).toContain(`<code>${code}</code>`);
      expect(page).toMatch(description);
      expect(page).not.toContain('name="request"');
    }
  });

  it("shows an error page, and never redirects, for an unknown client or a redirect URI it did not register", async () => {
    const http = client();
    for (const query of [
      { client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA", redirect_uri: redirectUri },
      { client_id: publicClient.client_id, redirect_uri: "https://evil.example/callback" },
      { client_id: publicClient.client_id, redirect_uri: "http://127.0.0.1/other" },
      { client_id: publicClient.client_id },
    ]) {
      const res = await authorizeWith(http, {
        response_type: "code",
        code_challenge_method: "S256",
        code_challenge: "a".repeat(43),
        ...query,
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("This request cannot be completed");
    }
  });

  it("stops a registration made before today's redirect URI rules at the error page when a request names a refused URI", async () => {
    const http = client();
    const store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
    // Registrations never expire: records as an older server stored them, one of them before application_type existed.
    for (const [uri, application_type] of [
      ["search-ms:query=invoice&crumb=location:%5C%5Cevil.example%5Cshare", "native"],
      ["ms-settings:privacy", "native"],
      ["cursor://anysphere.cursor-mcp/oauth/callback", "native"],
      ["myapp:/callback", undefined],
    ] as const) {
      const client_id = `fdc_${"A".repeat(6)}${oauth.generateRandomState().slice(0, 16)}`;
      await store.set(clientKey(client_id), {
        client_id,
        client_id_issued_at: 1_700_000_000,
        redirect_uris: [uri, redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        ...(application_type ? { application_type } : {}),
      });
      const asked = { client_id, code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), state: "s" };
      // A good request and a bad one alike: no consent form and no redirect to the refused URI.
      for (const response_type of ["code", "token"]) {
        const res = await http(authorizeUrl(as, { ...asked, redirect_uri: uri, response_type }), { redirect: "manual" });
        expect([res.status, res.headers.get("location"), res.headers.get("set-cookie")], `${uri} ${response_type}`).toEqual([
          400,
          null,
          null,
        ]);
        const page = await res.text();
        expect(page).toContain("This request cannot be completed");
        expect(page).toContain("was accepted before a rule that now refuses it");
        expect(page).toContain(escapeHtml(new URL(uri).protocol));
      }
      // Its loopback redirect URI still passes every rule, and still gets the consent screen.
      expect((await consentScreen(authorizeUrl(as, { ...asked, redirect_uri: redirectUri }), http)).page.status).toBe(200);
    }
  });

  it("refuses a consent POST without the cookie, with a forged token, or from another origin; answers it once", async () => {
    const http = client();
    const { requestToken: token, cookie } = await consentScreen(
      authorizeUrl(as, {
        client_id: publicClient.client_id,
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        state: "s",
      }),
      http,
    );
    for (const [fields, sentCookie, headers] of [
      [{ request: token, decision: "approve" }, undefined, {}],
      [{ request: token, decision: "approve" }, "oauth_consent=forged", {}],
      [{ request: `${token.slice(0, -4)}AAAA`, decision: "approve" }, cookie, {}],
      [{ decision: "approve" }, cookie, {}],
      [{ request: token, decision: "approve" }, cookie, { origin: "https://evil.example" }],
    ] as const) {
      const res = await postConsent(as, fields, sentCookie, headers, http);
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
    }
    expect((await postConsent(as, { request: token, decision: "approve" }, cookie, {}, http)).status).toBe(303);
    expect((await postConsent(as, { request: token, decision: "approve" }, cookie, {}, http)).status).toBe(409);
  });

  it("takes a decision only from a page of this site: another site's Referer, or neither header, is refused", async () => {
    const http = client();
    for (const headers of [{ referer: "https://evil.example/csrf.html" }, {}] as Record<string, string>[]) {
      const screen = await consentScreen(
        authorizeUrl(as, { client_id: publicClient.client_id, redirect_uri: redirectUri, code_challenge: "a".repeat(43) }),
        http,
      );
      // Not postConsent, which posts as a browser does (with the page's Origin): here exactly these headers.
      const answer = await http(as.authorization_endpoint!, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: screen.cookie, ...headers },
        body: new URLSearchParams({ request: screen.requestToken, decision: "approve" }),
      });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers.get("location")).toBeNull();
    }
  });

  it("names an application's private-use scheme as where the answer goes, never the host part the application chose", async () => {
    const http = client();
    const destinations = [
      ["com.evil.app://accounts.google.com/cb", "<strong>com.evil.app</strong>, an application on this device"],
      ["com.evil.app://localhost:8888/cb", "<strong>com.evil.app</strong>, an application on this device"],
      ["com.example.app:/cb", "<strong>com.example.app</strong>, an application on this device"],
      ["http://127.0.0.1:7777/cb", "<strong>127.0.0.1:7777</strong>, an application running on this computer"],
    ] as const;
    const { client_id } = await register(as, { redirect_uris: destinations.map(([uri]) => uri), token_endpoint_auth_method: "none" }, http);
    for (const [redirect_uri, shown] of destinations) {
      const { html } = await consentScreen(authorizeUrl(as, { client_id, redirect_uri, code_challenge: "a".repeat(43), state: "s" }), http);
      expect(html, redirect_uri).toContain(`After you decide, you go back to ${shown}.`);
      expect(html).not.toContain("accounts.google.com");
    }
  });

  it("matches a redirect URI as written (RFC 9700 §4.1.3), letting only a loopback port vary: other spellings of it are an error page", async () => {
    const http = client();
    const registered = ["http://127.0.0.1/cb", "http://localhost:9999/x", "com.example.app:/cb"];
    const { client_id } = await register(as, { redirect_uris: registered, token_endpoint_auth_method: "none" }, http);
    const asked = (redirect_uri: string) =>
      http(authorizeUrl(as, { client_id, redirect_uri, code_challenge: "a".repeat(43), state: "s" }), { redirect: "manual" });
    for (const redirect_uri of [
      "http://0x7f.1/cb",
      "http://2130706433/cb",
      "http://127.1/cb",
      "http:/127.0.0.1/cb",
      "http:\\127.0.0.1/cb",
      "http://127.0.0.1/cb/../cb",
      "http://127.0.0.1:0/cb",
      "http://127.0.0.1:080/cb",
      "http://LOCALHOST:1/x",
      "com.example.app:/cb/../cb",
      "COM.EXAMPLE.APP:/cb",
    ]) {
      const res = await asked(redirect_uri);
      expect([res.status, res.headers.get("location")], redirect_uri).toEqual([400, null]);
      expect(await res.text(), redirect_uri).toContain("is not one the application registered");
    }
    for (const redirect_uri of ["http://127.0.0.1:51234/cb", "http://localhost:1/x", "com.example.app:/cb"]) {
      const res = await asked(redirect_uri);
      expect(res.status, redirect_uri).toBe(200);
      await res.body?.cancel();
    }
  });

  it("sends Deny back as access_denied with state and iss", async () => {
    const { location } = await consentByHttp(
      as,
      {
        client_id: publicClient.client_id,
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        state: "d1",
      },
      "deny",
      client(),
    );
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "access_denied", state: "d1", iss: as.issuer });
  });

  it("protects the consent page: no framing, no cache, a strict CSP, an HttpOnly SameSite=Strict cookie; no index", async () => {
    const { page, html } = await consentScreen(
      authorizeUrl(as, {
        client_id: publicClient.client_id,
        redirect_uri: "http://127.0.0.1:5000/callback",
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      }),
      client(),
    );
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:5000; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<meta name="description" content="An application asks for access to [^"]+: approve or deny it\.">/);
  });
});

describe("registration", () => {
  const registerWith = (http: Http, body: string, type = "application/json") =>
    http(as.registration_endpoint!, { method: "POST", headers: { "content-type": type }, body });

  it("refuses to register a scheme the operating system owns, or a private-use scheme that is not a reversed domain name", async () => {
    const http = client();
    for (const uri of ["search-ms:query=invoice&crumb=location:\\\\evil.example\\share", "cursor://anysphere.cursor-mcp/oauth/callback"]) {
      const res = await registerWith(
        http,
        JSON.stringify({ application_type: "native", redirect_uris: [uri], token_endpoint_auth_method: "none" }),
      );
      expect([res.status, ((await res.json()) as { error: string }).error], uri).toEqual([400, "invalid_redirect_uri"]);
    }
  });

  it("refuses a JSON type the endpoint does not name, and a client name a person cannot read as it is", async () => {
    const http = client();
    const machine = (client_name: string) =>
      JSON.stringify({ client_name, grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" });
    const foreign = await registerWith(http, machine("Test"), "application/foo+json");
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ error: "invalid_client_metadata" });
    for (const name of ["Kestrel\u200bStudio", "Kestrel \ufffd Studio", "\u202eoidutS lertseK"]) {
      const hidden = await registerWith(http, machine(name));
      expect(hidden.status, JSON.stringify(name)).toBe(400);
      expect(await hidden.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
  });

  it("refuses metadata nested deeper than any JSON body may be", async () => {
    const deep = `${"[".repeat(2000)}1${"]".repeat(2000)}`;
    const res = await registerWith(
      client(),
      `{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"none","extra":${deep}}`,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "invalid_client_metadata",
      error_description: "The JSON nests arrays and objects more than 32 levels deep.",
    });
  });
});

describe("hostile input", () => {
  it("answers oversized and malformed bodies with 4xx, never 5xx", async () => {
    const http = client();
    // From the site's own page (the consent form takes nothing else), so that the body is what is refused.
    const post = async (path: string, contentType: string, body: string) =>
      (await http(`${d.baseUrl}${path}`, { method: "POST", headers: { "content-type": contentType, origin: d.baseUrl }, body })).status;
    expect(await post("/oauth/register", "application/json", "{")).toBe(400);
    expect(await post("/oauth/register", "application/json", JSON.stringify({ client_name: "x".repeat(20_000) }))).toBe(413);
    expect(await post("/oauth/token", "application/x-www-form-urlencoded", "grant_type=client_credentials&x=" + "y".repeat(10_000))).toBe(
      413,
    );
    expect(await post("/oauth/token", "application/x-www-form-urlencoded", "%%%&&==")).toBe(400);
    expect(await post("/oauth/token", "text/plain", "hello")).toBe(400);
    expect(await post("/oauth/authorize", "application/x-www-form-urlencoded", "request=" + "x".repeat(20_000))).toBe(413);
    expect((await http(`${d.baseUrl}/oauth/token`)).status).toBe(405);
  });
});
