import { createServer } from "node:http";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { refusedDocumentDescription } from "../../src/oauth/cimd.ts";
import { escapeHtml } from "../../src/site/function-page.ts";
import { closeServer, listenOnLoopback, startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { fileDeployment } from "../support/deployment.ts";
import { hostedClients } from "../support/hosted-clients.ts";
import { consentByHttp, discover, through, type Http } from "../support/oauth-client.ts";

/**
 * The clients the authorization server meets, in-process on a local site (its base URL on localhost, so that client ID
 * metadata documents may live on this machine, as in the local runtime's test mode), each consent posted as its form
 * posts it: today's hosted and desktop clients, each with its own redirect URIs; metadata document clients, public or
 * proving themselves with a key (every attack on the assertion refused, the code left unspent; an audience only as one
 * string), and refused documents.
 * tests/unit/oauth-cimd.test.ts and tests/unit/client-assertion.test.ts check documents and assertions one by one;
 * tests/doors/oauth-sdk.test.ts has the MCP SDK's own OAuth; tests/browser/oauth.test.ts clicks the consent screen for a
 * registered and a metadata document client through `npm start`.
 */
const base = "http://localhost:8888";
const d = fileDeployment("local", { baseUrl: base, env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" } }).d;
let as: oauth.AuthorizationServer;
let documents: DocumentHost;
const redirectUri = "http://127.0.0.1/callback";
const listenerUri = "http://127.0.0.1:50124/callback";

beforeAll(async () => {
  as = await discover(base, d.fetchFrom());
  documents = await startDocumentHost();
});
afterAll(async () => {
  await documents?.close();
});

const challengeOf = (verifier: string) => oauth.calculatePKCECodeChallenge(verifier);

describe("the hosted clients' redirect URIs", () => {
  const registerAs = async (http: Http, name: string, redirect_uris: string[]) => {
    const res = await http(as.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: name,
        redirect_uris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    });
    return { status: res.status, body: (await res.json()) as { client_id: string; error?: string; error_description?: string } };
  };

  // A client refused as it registers today (Cursor, tests/support/hosted-clients.ts) shows the refusal, then what it would need.
  it.each(hostedClients.map((c) => [c.name, c] as const))(
    "%s registers (or, refused, registers what it would need) and gets a code at each redirect URI",
    async (_name, hosted) => {
      const http = d.fetchFrom();
      if (hosted.refused) {
        const refused = await registerAs(http, hosted.name, hosted.redirect_uris);
        expect([refused.status, refused.body.error]).toEqual([400, "invalid_redirect_uri"]);
        expect(refused.body.error_description).toContain(JSON.stringify(hosted.refused.uri));
      }
      const redirectUris = hosted.refused?.needs ?? hosted.redirect_uris;
      const { status, body: registration } = await registerAs(http, hosted.name, redirectUris);
      expect(status).toBe(201);
      expect(registration).toMatchObject({ application_type: hosted.application_type, grant_types: ["authorization_code"] });
      for (const registered of redirectUris) {
        // A loopback listener's port is chosen at run time (RFC 8252 §7.3).
        const redirect = registered.startsWith("http://127.0.0.1/") ? registered.replace("127.0.0.1", "127.0.0.1:50123") : registered;
        const { location } = await consentByHttp(
          as,
          {
            client_id: registration.client_id,
            redirect_uri: redirect,
            code_challenge: await challengeOf(oauth.generateRandomCodeVerifier()),
            state: "hosted",
            scope: "svc:brief",
            resource: `${base}/mcp`,
          },
          "approve",
          http,
        );
        expect(location.href.startsWith(`${new URL(redirect).href}?`), `${location.href} for ${redirect}`).toBe(true);
        expect(location.searchParams.get("code")).toBeTruthy();
        expect(location.searchParams.get("iss")).toBe(as.issuer);
        expect(location.searchParams.get("state")).toBe("hosted");
      }
    },
  );
});

describe("client ID metadata documents", () => {
  it("accepts a URL client_id, names it on the consent screen by the host that publishes it, and issues a token", async () => {
    const http = d.fetchFrom();
    const clientId = documents.publishClient("/public.json", {
      client_name: "Doc <Client>",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    });
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" };
    const verifier = oauth.generateRandomCodeVerifier();
    const { html, location } = await consentByHttp(
      as,
      { client_id: clientId, redirect_uri: redirectUri, code_challenge: await challengeOf(verifier), state: "c" },
      "approve",
      http,
    );
    expect(html).toContain("Doc &lt;Client&gt;");
    // Labelled by the host that publishes its document, not "Unverified", and not claiming a key.
    expect(html).toContain(`<span class="badge">From ${new URL(clientId).host}</span>`);
    expect(html).toContain("it does not prove itself with a key");
    const params = oauth.validateAuthResponse(as, client, location, "c");
    const token = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, through(http)),
    );
    expect(token.access_token).toBeTruthy();
  });

  it("answers a refused document with one and the same error page whatever the reason, saying only that it was refused", async () => {
    const http = d.fetchFrom();
    const closed = createServer();
    const closedOrigin = await listenOnLoopback(closed);
    await closeServer(closed);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const pages: string[] = [];
    const clientIds = [
      `${closedOrigin}/refused-connection.json`,
      documents.publish("/bad-json.json", "{ not json"),
      `${documents.origin}/missing.json`,
      "https://10.0.0.1/private-address.json",
      "https://studio.example/a/../client.json",
    ];
    for (const clientId of clientIds) {
      const res = await http(
        `${as.authorization_endpoint}?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: "a".repeat(43), code_challenge_method: "S256", state: "s" })}`,
        { redirect: "manual" },
      );
      expect(res.status, clientId).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      pages.push(await res.text());
    }
    expect(pages[0]).toContain("This request cannot be completed");
    expect(pages[0]).toContain(escapeHtml(refusedDocumentDescription));
    expect(pages[0]).not.toContain("private");
    for (const page of pages.slice(1)) expect(page).toBe(pages[0]);
    // The reason is in the function log, one line a refusal, with the URL.
    expect(log.mock.calls.map(([line]) => String(line))).toEqual(clientIds.map((id) => expect.stringContaining(JSON.stringify(id))));
    log.mockRestore();
  });
});

describe("a metadata document client that proves itself with a key (private_key_jwt)", () => {
  let keyed: Awaited<ReturnType<DocumentHost["publishKeyedClient"]>>;
  let client: oauth.Client;
  let stranger: CryptoKey;
  beforeAll(async () => {
    keyed = await documents.publishKeyedClient(
      "/keyed.json",
      { client_name: "Keyed Agent", redirect_uris: [redirectUri], grant_types: ["authorization_code", "client_credentials"] },
      "client-key-1",
    );
    client = { client_id: keyed.clientId, token_endpoint_auth_method: "private_key_jwt" };
    stranger = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])).privateKey;
  });

  const signedBy = (key: CryptoKey, modify?: oauth.ModifyAssertionFunction) =>
    oauth.PrivateKeyJwt({ key, kid: keyed.kid }, modify ? { [oauth.modifyAssertion]: modify } : {});
  /** The refusal's code, and the reason it gives (so each attack is seen refused for its own reason). */
  async function refusedAs(response: Response) {
    expect(response.status).toBe(401);
    const { error, error_description } = (await response.json()) as { error: string; error_description: string };
    return `${error}: ${error_description}`;
  }
  /** An approved code, the consent posted as its form posts it, and the screen it was approved on. */
  async function approved(http: Http, state: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const { html, location } = await consentByHttp(
      as,
      { client_id: keyed.clientId, redirect_uri: listenerUri, code_challenge: await challengeOf(verifier), state, scope: "svc:brief" },
      "approve",
      http,
    );
    return { html, verifier, params: oauth.validateAuthResponse(as, client, location, state) };
  }

  it("is advertised in the authorization server metadata", () => {
    expect(as.token_endpoint_auth_methods_supported).toEqual(["client_secret_post", "none", "private_key_jwt"]);
    expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(["ES256", "RS256"]);
  });

  it("is named by its host on the consent screen, and redeems its code only with a valid assertion, each once", async () => {
    const http = d.fetchFrom();
    const first = await approved(http, "first");
    const host = new URL(keyed.clientId).host;
    expect(first.html).toContain(`Keyed Agent <span class="badge">From ${host}</span></h1>`);
    expect(first.html).toContain(`it proves itself with a key that <strong>${host}</strong> publishes`);
    expect(first.html).not.toContain("Unverified");

    const redeem = (auth: oauth.ClientAuth, { params, verifier } = first) =>
      oauth.authorizationCodeGrantRequest(as, client, auth, params, listenerUri, verifier, through(http));
    // Each attack is refused before the code is looked at, so the same code still works afterwards.
    expect(await refusedAs(await redeem(oauth.None()))).toMatch(/^invalid_client: .*send client_assertion/);
    expect(await refusedAs(await redeem(signedBy(stranger)))).toMatch(/^invalid_client: .*signature/);
    const expired = signedBy(keyed.privateKey, (_h, p) => {
      const now = Number(p.iat);
      p.iat = p.nbf = now - 600;
      p.exp = now - 300;
    });
    expect(await refusedAs(await redeem(expired))).toMatch(/^invalid_client: .*expired/);
    const elsewhere = signedBy(keyed.privateKey, (_h, p) => void (p.aud = "https://other-server.example"));
    expect(await refusedAs(await redeem(elsewhere))).toMatch(/^invalid_client: .*aud/);

    const jti = crypto.randomUUID();
    const withJti = signedBy(keyed.privateKey, (_h, p) => void (p.jti = jti));
    const token = await oauth.processAuthorizationCodeResponse(as, client, await redeem(withJti));
    expect(token).toMatchObject({ token_type: "bearer", scope: "svc:read svc:brief" });

    // The same jti again, on a second code: a replayed assertion.
    const second = await approved(http, "second");
    expect(await refusedAs(await redeem(withJti, second))).toMatch(/^invalid_client: .*already used/);
    expect(
      (await oauth.processAuthorizationCodeResponse(as, client, await redeem(signedBy(keyed.privateKey), second))).access_token,
    ).toBeTruthy();
  });

  it("takes an assertion's audience as one string, the issuer or the token endpoint; an array, even of those alone, is invalid_client (draft-ietf-oauth-rfc7523bis)", async () => {
    const http = d.fetchFrom();
    const grantWith = (aud: string | string[]) =>
      oauth.clientCredentialsGrantRequest(
        as,
        client,
        signedBy(keyed.privateKey, (_h, p) => void (p.aud = aud)),
        new URLSearchParams({ scope: "svc:brief" }),
        through(http),
      );
    for (const aud of [[as.token_endpoint!, "https://evil.example"], [as.issuer, "https://evil.example"], [as.issuer]]) {
      const res = await grantWith(aud);
      expect(res.status, JSON.stringify(aud)).toBe(401);
      expect(await res.json(), JSON.stringify(aud)).toEqual({
        error: "invalid_client",
        error_description: expect.stringMatching(/aud must be a single string/),
      });
    }
    // Another server's, or this one's spelled otherwise: the refusal names that rule, not the array's.
    for (const aud of ["https://evil.example/oauth/token", `${as.issuer}/`, as.issuer.toUpperCase()]) {
      const res = await grantWith(aud);
      expect(await res.json(), aud).toEqual({
        error: "invalid_client",
        error_description: expect.stringMatching(/aud must be this server's issuer/),
      });
    }
    for (const aud of [as.issuer, as.token_endpoint!])
      expect((await oauth.processClientCredentialsResponse(as, client, await grantWith(aud))).scope, aud).toBe("svc:read svc:brief");
  });

  it("gets a client_credentials token with its assertion, since its document lists that grant, and none without", async () => {
    const http = d.fetchFrom();
    const grant = (auth: oauth.ClientAuth) =>
      oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams({ scope: "svc:brief" }), through(http));
    expect((await oauth.processClientCredentialsResponse(as, client, await grant(signedBy(keyed.privateKey)))).scope).toBe(
      "svc:read svc:brief",
    );
    expect(await refusedAs(await grant(oauth.None()))).toMatch(/^invalid_client: /);
  });
});
