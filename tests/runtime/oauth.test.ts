import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createRemoteJWKSet, jwtVerify, SignJWT, importJWK, type JWK } from "jose";
import * as oauth from "oauth4webapi";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { refusedDocumentDescription } from "../../src/oauth/cimd.ts";
import { authorizationServerMetadata, discoveryDocuments } from "../../src/oauth/metadata.ts";
import { createAccessTokenVerifier } from "../../src/oauth/verify.ts";
import { escapeHtml } from "../../src/site/function-page.ts";
import { consentByHttp, discover, insecure, postConsent, register } from "../support/oauth-client.ts";

/**
 * The authorization server through the local runtime (netlify dev: static discovery documents, the oauth and jwks
 * functions, the local store), driven by a real client library. Registrations here stay well under the per-IP quota.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
// Every request comes from 127.0.0.1: each test starts with a fresh `oauth` window (tests/runtime/oauth-limits.test.ts
// covers the limit itself).
beforeEach(async () => {
  const keys = await store.keys("rl:oauth:*");
  if (keys.length > 0) await store.del(...keys);
});
let as: oauth.AuthorizationServer;
const statuses: number[] = [];
const track = async (response: Response | Promise<Response>) => {
  const r = await response;
  statuses.push(r.status);
  return r;
};
const form = (fields: Record<string, string>) =>
  track(
    fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    }),
  );
const jwks = () => createRemoteJWKSet(new URL(as.jwks_uri!));
const challengeOf = (verifier: string) => oauth.calculatePKCECodeChallenge(verifier);

let publicClient: oauth.Client;
const redirectUri = "http://127.0.0.1/callback";

beforeAll(async () => {
  as = await discover(base);
  publicClient = await register(as, {
    client_name: "Runtime public client",
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: "none",
  });
});
afterAll(() => {
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});

async function approvedCode(verifier: string, extra: Record<string, string> = {}) {
  const state = oauth.generateRandomState();
  const { location } = await consentByHttp(as, {
    client_id: publicClient.client_id,
    redirect_uri: "http://127.0.0.1:49152/callback",
    code_challenge: await challengeOf(verifier),
    state,
    ...extra,
  });
  return { location, state, code: location.searchParams.get("code")! };
}

describe("discovery", () => {
  it("serves the RFC 8414 metadata exactly as the module builds it, as JSON with CORS", async () => {
    expect(as).toMatchObject(authorizationServerMetadata(base));
    const res = await track(fetch(`${base}/.well-known/oauth-authorization-server`));
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toMatch(/public/);
  });

  it("serves the three RFC 9728 documents, each naming its own resource", async () => {
    for (const [path, document] of Object.entries(discoveryDocuments(base))) {
      const res = await track(fetch(`${base}${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual(document);
    }
    const mcp = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(mcp.resource).toBe(`${base}/mcp`);
    expect(mcp.authorization_servers).toEqual([as.issuer]);
  });

  it("serves the public key set from the running configuration, never a private part", async () => {
    const res = await track(fetch(as.jwks_uri!));
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const set = (await res.json()) as { keys: JWK[] };
    expect(set.keys.length).toBeGreaterThan(0);
    for (const key of set.keys)
      expect(key).toEqual({ kty: "EC", crv: "P-256", x: key.x, y: key.y, kid: key.kid, alg: "ES256", use: "sig" });
  });
});

describe("client credentials", () => {
  it("registers, gets a token with oauth4webapi and verifies it offline against the served key set", async () => {
    const client = await register(as, {
      client_name: "Runtime M2M",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_post",
    });
    expect(client.client_secret_expires_at).toBe(0);
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(client.client_secret as string),
      { scope: "svc:brief", resource: `${base}/a2a/v1` },
      insecure,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const token = await oauth.processClientCredentialsResponse(as, client, response);
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "svc:read svc:brief" });

    const { payload, protectedHeader } = await jwtVerify(token.access_token, jwks(), {
      issuer: as.issuer,
      audience: `${base}/a2a/v1`,
      typ: "at+jwt",
      algorithms: ["ES256"],
    });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: client.client_id, client_id: client.client_id, scope: "svc:read svc:brief" });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.jti).toBeTruthy();

    const verifier = createAccessTokenVerifier({ baseUrl: base, jwks: jwks() });
    expect(await verifier.verifyToken(token.access_token, ["svc:brief"])).toMatchObject({
      ok: true,
      clientId: client.client_id,
      audience: `${base}/a2a/v1`,
    });

    const wrong = await form({ grant_type: "client_credentials", client_id: client.client_id, client_secret: "fds_nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBeTruthy();
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const grant = async (extra: Record<string, string>) =>
      (
        await form({
          grant_type: "client_credentials",
          client_id: client.client_id,
          client_secret: client.client_secret as string,
          ...extra,
        })
      ).json();
    expect(await grant({ scope: "svc:root" })).toMatchObject({ error: "invalid_scope" });
    expect(await grant({ resource: "https://evil.example" })).toMatchObject({ error: "invalid_target" });
  });
});

describe("authorization code with PKCE", () => {
  it("runs the whole flow: consent, iss and state in the redirect, code exchange, a token for /mcp", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { location, state } = await approvedCode(verifier, { scope: "svc:brief", resource: `${base}/mcp` });
    expect(location.origin + location.pathname).toBe("http://127.0.0.1:49152/callback");
    const params = oauth.validateAuthResponse(as, publicClient, location, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      publicClient,
      oauth.None(),
      params,
      "http://127.0.0.1:49152/callback",
      verifier,
      insecure,
    );
    const token = await oauth.processAuthorizationCodeResponse(as, publicClient, response);
    expect(token.scope).toBe("svc:read svc:brief");
    const { payload } = await jwtVerify(token.access_token, jwks(), { issuer: as.issuer, audience: `${base}/mcp`, typ: "at+jwt" });
    expect(payload.client_id).toBe(publicClient.client_id);
  });

  it("refuses a wrong verifier, and then the code is spent", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { code } = await approvedCode(verifier);
    const redeem = (code_verifier: string) =>
      form({
        grant_type: "authorization_code",
        code,
        code_verifier,
        redirect_uri: "http://127.0.0.1:49152/callback",
        client_id: publicClient.client_id,
      });
    const wrong = await redeem(oauth.generateRandomCodeVerifier());
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    expect(await (await redeem(verifier)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a redirect_uri at the token endpoint other than the authorization request's", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { code } = await approvedCode(verifier);
    const res = await form({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:49153/callback",
      client_id: publicClient.client_id,
    });
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("sends PKCE plain or missing back to the client as invalid_request, with state and iss", async () => {
    for (const params of [
      { code_challenge_method: "plain", code_challenge: "a".repeat(43) },
      { code_challenge: undefined },
      { code_challenge_method: undefined, code_challenge: "a".repeat(43) },
    ]) {
      const res = await track(
        fetch(
          `${as.authorization_endpoint}?${new URLSearchParams(Object.entries({ response_type: "code", client_id: publicClient.client_id, redirect_uri: redirectUri, state: "s1", code_challenge_method: "S256", ...params }).filter((e): e is [string, string] => e[1] !== undefined))}`,
          { redirect: "manual" },
        ),
      );
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location")!);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("s1");
      expect(location.searchParams.get("iss")).toBe(as.issuer);
    }
  });

  it("shows an error page, and never redirects, for an unknown client or a redirect URI it did not register", async () => {
    for (const query of [
      { client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA", redirect_uri: redirectUri },
      { client_id: publicClient.client_id, redirect_uri: "https://evil.example/callback" },
      { client_id: publicClient.client_id, redirect_uri: "http://127.0.0.1/other" },
      { client_id: publicClient.client_id },
    ] as Record<string, string>[]) {
      const res = await track(
        fetch(
          `${as.authorization_endpoint}?${new URLSearchParams({ response_type: "code", code_challenge_method: "S256", code_challenge: "a".repeat(43), ...query })}`,
          { redirect: "manual" },
        ),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("This request cannot be completed");
    }
  });

  it("refuses a consent POST without the cookie, with a forged token, or from another origin", async () => {
    const params = {
      client_id: publicClient.client_id,
      redirect_uri: redirectUri,
      code_challenge: await challengeOf(oauth.generateRandomCodeVerifier()),
      state: "s",
    };
    const page = await track(
      fetch(`${as.authorization_endpoint}?${new URLSearchParams({ response_type: "code", code_challenge_method: "S256", ...params })}`),
    );
    const html = await page.text();
    const token = /name="request" value="([^"]+)"/.exec(html)![1]!;
    const cookie = page.headers.get("set-cookie")!.split(";")[0]!;

    for (const [fields, sentCookie, headers] of [
      [{ request: token, decision: "approve" }, undefined, {}],
      [{ request: token, decision: "approve" }, "oauth_consent=forged", {}],
      [{ request: `${token.slice(0, -4)}AAAA`, decision: "approve" }, cookie, {}],
      [{ decision: "approve" }, cookie, {}],
      [{ request: token, decision: "approve" }, cookie, { origin: "https://evil.example" }],
    ] as const) {
      const res = await track(postConsent(as, fields, sentCookie, headers));
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
    }
    const ok = await track(postConsent(as, { request: token, decision: "approve" }, cookie));
    expect(ok.status).toBe(303);
    expect(await track(postConsent(as, { request: token, decision: "approve" }, cookie)).then((r) => r.status)).toBe(409);
  });

  it("sends Deny back as access_denied with state and iss", async () => {
    const { location } = await consentByHttp(
      as,
      {
        client_id: publicClient.client_id,
        redirect_uri: redirectUri,
        code_challenge: await challengeOf(oauth.generateRandomCodeVerifier()),
        state: "d1",
      },
      "deny",
    );
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "access_denied", state: "d1", iss: as.issuer });
  });

  it("protects the consent page: no framing, no cache, a strict CSP, an HttpOnly SameSite=Strict cookie", async () => {
    const { page } = await consentByHttp(as, {
      client_id: publicClient.client_id,
      redirect_uri: "http://127.0.0.1:5000/callback",
      code_challenge: await challengeOf(oauth.generateRandomCodeVerifier()),
    });
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:5000; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it("keeps the consent page out of search indexes and describes it", async () => {
    const { html } = await consentByHttp(as, {
      client_id: publicClient.client_id,
      redirect_uri: "http://127.0.0.1:5000/callback",
      code_challenge: await challengeOf(oauth.generateRandomCodeVerifier()),
    });
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<meta name="description" content="An application asks for access to [^"]+: approve or deny it\.">/);
  });
});

describe("client ID metadata documents (loopback test mode)", () => {
  let server: Server;
  let documentUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          client_id: documentUrl,
          client_name: "Doc <Client>",
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: "none",
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    documentUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("accepts a URL client_id, names it on the consent screen, and issues a token", async () => {
    const client: oauth.Client = { client_id: documentUrl, token_endpoint_auth_method: "none" };
    const verifier = oauth.generateRandomCodeVerifier();
    const { html, location } = await consentByHttp(as, {
      client_id: documentUrl,
      redirect_uri: redirectUri,
      code_challenge: await challengeOf(verifier),
      state: "c",
    });
    expect(html).toContain("Doc &lt;Client&gt;");
    // Labelled by the host that publishes its document, not "Unverified", and not claiming a key.
    const host = new URL(documentUrl).host;
    expect(html).toContain(`<span class="badge">From ${host}</span>`);
    expect(html).toContain("it does not prove itself with a key");
    const params = oauth.validateAuthResponse(as, client, location, "c");
    const token = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure),
    );
    expect(token.access_token).toBeTruthy();
  });

  it("shows an error page for a document on a private address, saying only that the document was refused", async () => {
    const res = await track(
      fetch(
        `${as.authorization_endpoint}?${new URLSearchParams({ response_type: "code", client_id: "https://10.0.0.1/client.json", redirect_uri: redirectUri, code_challenge: "a".repeat(43), code_challenge_method: "S256" })}`,
      ),
    );
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain(escapeHtml(refusedDocumentDescription));
    expect(page).not.toContain("private");
  });
});

describe("hostile input", () => {
  it("answers oversized and malformed bodies with 4xx, never 5xx", async () => {
    const post = (path: string, contentType: string, body: string) =>
      track(fetch(`${base}${path}`, { method: "POST", headers: { "content-type": contentType }, body }));
    expect((await post("/oauth/register", "application/json", "{")).status).toBe(400);
    expect((await post("/oauth/register", "application/json", JSON.stringify({ client_name: "x".repeat(20_000) }))).status).toBe(413);
    expect(
      (await post("/oauth/token", "application/x-www-form-urlencoded", "grant_type=client_credentials&x=" + "y".repeat(10_000))).status,
    ).toBe(413);
    expect((await post("/oauth/token", "application/x-www-form-urlencoded", "%%%&&==")).status).toBe(400);
    expect((await post("/oauth/token", "text/plain", "hello")).status).toBe(400);
    expect((await post("/oauth/authorize", "application/x-www-form-urlencoded", "request=" + "x".repeat(20_000))).status).toBe(413);
    expect((await track(fetch(`${base}/oauth/token`))).status).toBe(405);
  });

  it("rejects tokens signed by the server's own key but with a wrong issuer or audience", async () => {
    const keys = JSON.parse(await readFile(join(inject("dataDir"), "signing-keys.json"), "utf8")) as { keys: JWK[] };
    const key = await importJWK(keys.keys[0]!, "ES256");
    const verifier = createAccessTokenVerifier({ baseUrl: base, jwks: jwks() });
    const sign = (iss: string, aud: string) =>
      new SignJWT({ client_id: "c", scope: "svc:brief" })
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: keys.keys[0]!.kid! })
        .setIssuer(iss)
        .setSubject("c")
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime("1h")
        .setJti("j")
        .sign(key);
    expect((await verifier.verifyToken(await sign(base, `${base}/mcp`))).ok).toBe(true);
    expect((await verifier.verifyToken(await sign("https://evil.example", `${base}/mcp`))).ok).toBe(false);
    expect((await verifier.verifyToken(await sign(base, "https://evil.example/mcp"))).ok).toBe(false);
  });
});
