import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import * as oauth from "oauth4webapi";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../support/browser.ts";
import { authorizeUrl, consentByHttp, discover, insecure } from "../support/oauth-client.ts";

/**
 * A ChatGPT-style client through `npm start`: its client_id is the URL of a metadata document served on loopback (the
 * test mode) that declares private_key_jwt with a jwks_uri. A person approves it in Chromium; oauth4webapi then
 * redeems the code with a signed client assertion. Every attack on the assertion is invalid_client, and leaves the
 * code unspent.
 */
const base = inject("baseUrl");
let browser: Browser;
let as: oauth.AuthorizationServer;
let documents: Server;
let client: oauth.Client;
let callback: Server;
let callbackUrl: string;
type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let own: KeyPair, stranger: KeyPair;
const kid = "client-key-1";

beforeAll(async () => {
  browser = await launchChromium();
  [own, stranger] = await Promise.all([generateKeyPair("ES256", { extractable: true }), generateKeyPair("ES256", { extractable: true })]);
  const jwks = { keys: [{ ...(await exportJWK(own.publicKey)), kid, alg: "ES256", use: "sig" }] };
  documents = createServer((req, res) => {
    res.writeHead(req.url === "/client.json" || req.url === "/jwks.json" ? 200 : 404, { "content-type": "application/json" });
    if (req.url === "/jwks.json") return res.end(JSON.stringify(jwks));
    res.end(
      JSON.stringify({
        client_id: client.client_id,
        client_name: "Keyed Agent",
        redirect_uris: ["http://127.0.0.1/callback"],
        grant_types: ["authorization_code", "client_credentials"],
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: new URL("/jwks.json", client.client_id).href,
      }),
    );
  });
  await new Promise<void>((r) => documents.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  client = { client_id: `${origin}/client.json`, token_endpoint_auth_method: "private_key_jwt" };
  callback = createServer((_req, res) => res.end("You can close this window."));
  await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  as = await discover(base);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => documents?.close(r));
  await new Promise((r) => callback?.close(r));
});

const signedBy = (key: CryptoKey, modify?: oauth.ModifyAssertionFunction) =>
  oauth.PrivateKeyJwt({ key, kid }, modify ? { [oauth.modifyAssertion]: modify } : {});

/** The refusal's code, and the reason it gives (so each attack is seen refused for its own reason). */
async function refusedAs(response: Response) {
  expect(response.status).toBe(401);
  const { error, error_description } = (await response.json()) as { error: string; error_description: string };
  return `${error}: ${error_description}`;
}

describe("a metadata document client that proves itself with a key (private_key_jwt)", () => {
  it("is advertised in the authorization server metadata", () => {
    expect(as.token_endpoint_auth_methods_supported).toEqual(["client_secret_post", "none", "private_key_jwt"]);
    expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(["ES256", "RS256"]);
  });

  it("gets a code through the consent screen, and a token only with a valid assertion", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const page = await browser.newPage();
    await page.goto(
      authorizeUrl(as, {
        client_id: client.client_id,
        redirect_uri: callbackUrl,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        state,
        scope: "svc:brief",
        resource: `${base}/mcp`,
      }).href,
    );
    const card = page.locator(".consent");
    const host = new URL(client.client_id).host;
    expect(await card.getByRole("heading", { level: 1 }).textContent()).toBe(`Keyed Agent From ${host}`);
    expect(await card.textContent()).toContain(`it proves itself with a key that ${host} publishes`);
    expect(await card.textContent()).not.toContain("Unverified");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.getByRole("button", { name: "Approve" }).click()]);
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    await page.close();

    const redeem = (auth: oauth.ClientAuth) =>
      oauth.authorizationCodeGrantRequest(as, client, auth, params, callbackUrl, verifier, insecure);
    // Each attack is refused before the code is looked at, so the same code still works afterwards.
    expect(await refusedAs(await redeem(oauth.None()))).toMatch(/^invalid_client: .*send client_assertion/);
    expect(await refusedAs(await redeem(signedBy(stranger.privateKey)))).toMatch(/^invalid_client: .*signature/);
    const expired = signedBy(own.privateKey, (_h, p) => {
      const now = Number(p.iat);
      p.iat = p.nbf = now - 600;
      p.exp = now - 300;
    });
    expect(await refusedAs(await redeem(expired))).toMatch(/^invalid_client: .*expired/);
    const elsewhere = signedBy(own.privateKey, (_h, p) => void (p.aud = "https://other-server.example"));
    expect(await refusedAs(await redeem(elsewhere))).toMatch(/^invalid_client: .*aud/);

    const jti = crypto.randomUUID();
    const withJti = signedBy(own.privateKey, (_h, p) => void (p.jti = jti));
    const token = await oauth.processAuthorizationCodeResponse(as, client, await redeem(withJti));
    expect(token).toMatchObject({ token_type: "bearer", scope: "svc:read svc:brief" });

    // The same jti again, on a second code: a replayed assertion.
    const secondVerifier = oauth.generateRandomCodeVerifier();
    const { location } = await consentByHttp(as, {
      client_id: client.client_id,
      redirect_uri: callbackUrl,
      code_challenge: await oauth.calculatePKCECodeChallenge(secondVerifier),
      state: "second",
    });
    const second = oauth.validateAuthResponse(as, client, location, "second");
    const again = (auth: oauth.ClientAuth) =>
      oauth.authorizationCodeGrantRequest(as, client, auth, second, callbackUrl, secondVerifier, insecure);
    expect(await refusedAs(await again(withJti))).toMatch(/^invalid_client: .*already used/);
    expect((await oauth.processAuthorizationCodeResponse(as, client, await again(signedBy(own.privateKey)))).access_token).toBeTruthy();
  });

  it("gets a client_credentials token with its assertion, since its document lists that grant", async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      signedBy(own.privateKey),
      new URLSearchParams({ scope: "svc:brief" }),
      insecure,
    );
    expect((await oauth.processClientCredentialsResponse(as, client, response)).scope).toBe("svc:read svc:brief");
    const bare = await oauth.clientCredentialsGrantRequest(as, client, oauth.None(), new URLSearchParams({ scope: "svc:brief" }), insecure);
    expect(await refusedAs(bare)).toMatch(/^invalid_client: /);
  });
});
