import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ClientCredentialsProvider, type CallToolResult, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { createRemoteJWKSet, jwtVerify, type JWK } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { authorizationServerMetadata, discoveryDocuments } from "../../src/tokens/metadata.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { connectMcp, eras, text } from "../support/mcp-client.ts";
import { expectTokenAfterChallenge, keyedProvider, recording } from "../support/mcp-oauth.ts";
import { authorizeUrl, consentScreen, discover, postConsent, register, through, type Http } from "../support/oauth-client.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * The authorization server through `npm start` (netlify dev: the static discovery documents with their headers, the
 * oauth and jwks functions, the local store), as end-to-end smoke: the documents and the key set as served; a machine
 * client (the MCP SDK's ClientCredentialsProvider) and a ChatGPT-style one (its PrivateKeyJwtProvider, with a metadata
 * document on loopback, the runtime's test mode) each getting a token and filing a dry_run brief at /mcp; and what only
 * netlify dev shows, its call again after a 403 counted once; and no redirect before the person has decided (a phishing
 * client's bad request is an error page; a scheme the operating system owns, or Cursor's `cursor:`, cannot be
 * registered). Every refusal, the other era and the other clients are in-process in tests/doors/oauth*.test.ts; the
 * consent screen in Chromium is tests/browser/oauth.test.ts.
 */
const base = inject("baseUrl");
const endpoint = `${base}/mcp`;
const modern = eras.find((e) => e.era === "modern")!;
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
let as: oauth.AuthorizationServer;
let documents: DocumentHost;

beforeAll(async () => {
  as = await discover(base);
  documents = await startDocumentHost();
});
afterAll(() => documents?.close());

/** Connects in the 2026-07-28 era with the provider, files a dry run and gives the tokens the provider got for it. */
async function fileDryRun(authProvider: OAuthClientProvider, fetch?: Http) {
  const client = await connectMcp(endpoint, modern, { authProvider, ...(fetch ? { fetch } : {}) });
  const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
  await client.close();
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
  expect(text(result)).toContain("Nothing was filed");
  return (await authProvider.tokens())!;
}

describe("discovery", () => {
  it("serves the RFC 8414 metadata as the module builds it and the three RFC 9728 documents, as JSON with CORS", async () => {
    expect(as).toMatchObject(authorizationServerMetadata(base));
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toMatch(/public/);
    await res.body?.cancel();
    for (const [path, document] of Object.entries(discoveryDocuments(base))) {
      const served = await fetch(`${base}${path}`);
      expect(served.status, path).toBe(200);
      expect(served.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(served.headers.get("access-control-allow-origin")).toBe("*");
      expect(await served.json()).toEqual(document);
    }
    expect(discoveryDocuments(base)["/.well-known/oauth-protected-resource/mcp"]).toMatchObject({
      resource: endpoint,
      authorization_servers: [as.issuer],
    });
  });

  it("serves the running configuration's public keys (the runtime's signing-keys.json), never a private part", async () => {
    const res = await fetch(as.jwks_uri!);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const set = (await res.json()) as { keys: JWK[] };
    expect(set.keys.length).toBeGreaterThan(0);
    for (const key of set.keys)
      expect(key).toEqual({ kty: "EC", crv: "P-256", x: key.x, y: key.y, kid: key.kid, alg: "ES256", use: "sig" });
    const configured = JSON.parse(await readFile(join(inject("dataDir"), "signing-keys.json"), "utf8")) as { keys: JWK[] };
    expect(set.keys.map(({ kid, x, y }) => ({ kid, x, y }))).toEqual(configured.keys.map(({ kid, x, y }) => ({ kid, x, y })));
  });
});

describe("machine clients get a token and file a dry_run brief through /mcp", () => {
  it("client_credentials through the SDK's ClientCredentialsProvider; the token verifies against the served key set", async () => {
    const registered = await register(as, { client_name: "Machine client", grant_types: ["client_credentials"], scope: "svc:brief" });
    const authProvider = new ClientCredentialsProvider({
      clientId: registered.client_id,
      clientSecret: registered.client_secret as string,
      expectedIssuer: base,
      scope: "svc:brief",
    });
    const tokens = await fileDryRun(authProvider);
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(as.jwks_uri!)), {
      issuer: as.issuer,
      audience: endpoint,
      typ: "at+jwt",
      algorithms: ["ES256"],
    });
    expect(payload).toMatchObject({ client_id: registered.client_id, scope: "svc:read svc:brief" });
  });

  it("a ChatGPT-style client: the SDK's PrivateKeyJwtProvider meets the 401, discovers, and gets a token with its assertion", async () => {
    const agent = await documents.publishKeyedClient("/agent.json", {
      client_name: "Keyed machine agent",
      grant_types: ["client_credentials"],
    });
    const { fetch: recorded, seen } = recording();
    const authProvider = keyedProvider(agent, base);
    expect((await fileDryRun(authProvider, recorded)).scope).toBe("svc:read svc:brief");
    expectTokenAfterChallenge(seen);
    // Its document and key set were fetched by the function, from this machine.
    expect(documents.hits.get("/agent.json")).toBe(1);
    expect(documents.hits.get("/agent.json.jwks")).toBe(1);
  });
});

describe("a client assertion's audience (draft-ietf-oauth-rfc7523bis)", () => {
  it("is accepted as one string, the issuer or the token endpoint; an array, even of those alone, is invalid_client", async () => {
    const agent = await documents.publishKeyedClient("/audience-agent.json", {
      client_name: "Audience checker",
      grant_types: ["client_credentials"],
    });
    const client: oauth.Client = { client_id: agent.clientId };
    const grantWith = (aud: string | string[]) =>
      oauth.clientCredentialsGrantRequest(
        as,
        client,
        oauth.PrivateKeyJwt({ key: agent.privateKey }, { [oauth.modifyAssertion]: (_h, p) => void (p.aud = aud) }),
        new URLSearchParams({ scope: "svc:brief" }),
        through(),
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
});

describe("per-address limits through the local runtime", () => {
  it("counts client_credentials asked for by a public client (whose client_id anyone knows) against the address", async () => {
    for (const key of await store.keys("rl:oauth-token:*")) await store.del(key);
    const { client_id } = await register(as, {
      client_name: "Public",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
    });
    const res = await fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id, scope: "svc:brief" }),
    });
    expect(await res.json()).toMatchObject({ error: "unauthorized_client" });
    expect(res.headers.get("ratelimit-policy")).toBe('"oauth-token";q=60;w=60');
    expect(await countedFor(store, "oauth-token", localClient)).toBe(1);
  });

  it("counts a refused consent POST once, though netlify dev retries its 403 at /oauth/authorize.html", async () => {
    // Every request here comes from 127.0.0.1: the test starts from a fresh window (tests/doors/oauth-limits.test.ts has the limits).
    const counters = await store.keys("rl:oauth:*");
    if (counters.length > 0) await store.del(...counters);
    const refused = await postConsent(as, { decision: "approve" }, undefined, { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+$/);
    await refused.body?.cancel();
    // Counted once, in whatever window the emulator's calls again fell (the next request shows 58 left, or 59 in a
    // window that started meanwhile).
    expect(await countedFor(store, "oauth", localClient)).toBe(1);
    // The consent screen, without a client: an error page, counted against the same policy.
    const next = await fetch(as.authorization_endpoint!);
    expect(next.status).toBe(400);
    expect(next.headers.get("ratelimit")).toMatch(/^"oauth";r=5[89];t=\d+$/);
    await next.body?.cancel();
    expect(await countedFor(store, "oauth", localClient)).toBe(2);
  });
});

describe("no open redirect from the studio's domain (RFC 9700 §4.11.2)", () => {
  it("shows a bad request from a client anyone registered as an error page, never a 302 to its redirect URI", async () => {
    const phish = "https://evil.example/phish";
    const { client_id } = await register(as, { redirect_uris: [phish], token_endpoint_auth_method: "none" });
    for (const [params, code] of [
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: undefined }, "invalid_request"],
      [{ scope: "admin" }, "invalid_scope"],
    ] as const) {
      const url = authorizeUrl(as, { client_id, redirect_uri: phish, code_challenge: "a".repeat(43), state: "s", ...params });
      const res = await fetch(url, { redirect: "manual" });
      expect([res.status, res.headers.get("location")], JSON.stringify(params)).toEqual([400, null]);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const page = await res.text();
      expect(page).toContain("This request cannot be completed");
      expect(page).toContain(code);
    }
  });

  it("names an application's private-use scheme as where the answer goes, never the host part the application chose", async () => {
    const destinations = [
      ["com.evil.app://accounts.google.com/cb", "<strong>com.evil.app</strong>, an application on this device"],
      ["com.evil.app://localhost:8888/cb", "<strong>com.evil.app</strong>, an application on this device"],
      ["com.example.app:/cb", "<strong>com.example.app</strong>, an application on this device"],
      ["http://127.0.0.1:7777/cb", "<strong>127.0.0.1:7777</strong>, an application running on this computer"],
    ] as const;
    const { client_id } = await register(as, { redirect_uris: destinations.map(([uri]) => uri), token_endpoint_auth_method: "none" });
    for (const [redirect_uri, shown] of destinations) {
      const url = authorizeUrl(as, { client_id, redirect_uri, code_challenge: "a".repeat(43), state: "s" });
      const { html } = await consentScreen(url);
      expect(html, redirect_uri).toContain(`After you decide, you go back to ${shown}.`);
      expect(html).not.toContain("accounts.google.com");
    }
  });

  it("matches a redirect URI as written (RFC 9700 §4.1.3), letting only a loopback port vary: other spellings of it are an error page", async () => {
    const registered = ["http://127.0.0.1/cb", "http://localhost:9999/x", "com.example.app:/cb"];
    const { client_id } = await register(as, { redirect_uris: registered, token_endpoint_auth_method: "none" });
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
      const url = authorizeUrl(as, { client_id, redirect_uri, code_challenge: "a".repeat(43), state: "s" });
      const res = await fetch(url, { redirect: "manual" });
      expect([res.status, res.headers.get("location")], redirect_uri).toEqual([400, null]);
      expect(await res.text(), redirect_uri).toContain("is not one the application registered");
    }
    for (const redirect_uri of ["http://127.0.0.1:51234/cb", "http://localhost:1/x", "com.example.app:/cb"]) {
      const url = authorizeUrl(as, { client_id, redirect_uri, code_challenge: "a".repeat(43), state: "s" });
      expect((await fetch(url, { redirect: "manual" })).status, redirect_uri).toBe(200);
    }
  });

  it("refuses to register a scheme the operating system owns, or a private-use scheme that is not a reversed domain name", async () => {
    for (const uri of ["search-ms:query=invoice&crumb=location:\\\\evil.example\\share", "cursor://anysphere.cursor-mcp/oauth/callback"]) {
      const res = await fetch(as.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ application_type: "native", redirect_uris: [uri], token_endpoint_auth_method: "none" }),
      });
      expect([res.status, ((await res.json()) as { error: string }).error], uri).toEqual([400, "invalid_redirect_uri"]);
    }
  });
  it("refuses to register metadata nested deeper than any JSON body may be, registering nothing", async () => {
    const deep = `${"[".repeat(2000)}1${"]".repeat(2000)}`;
    const res = await fetch(as.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"none","extra":${deep}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "invalid_client_metadata",
      error_description: "The JSON nests arrays and objects more than 32 levels deep.",
    });
  });
});
