import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { Redis } from "@upstash/redis";
import { createLocalJWKSet, jwtVerify, type JWK } from "jose";
import type * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { authorizationServerMetadata, discoveryDocuments } from "../../src/tokens/metadata.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { connectMcp, eras, text } from "../support/mcp-client.ts";
import { expectTokenAfterChallenge, keyedProvider, recording } from "../support/mcp-oauth.ts";
import { discover, postConsent } from "../support/oauth-client.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * The authorization server through `npm start`, as end-to-end smoke, each test for what only the runtime shows:
 * - the discovery documents as netlify dev serves the static files, with their headers;
 * - a ChatGPT-style client (the MCP SDK's PrivateKeyJwtProvider) whose metadata document only the runtime's test mode
 *   fetches from loopback, meeting /mcp's 401 and filing a dry_run brief; its token verifies against the key set the jwks
 *   function serves, the runtime's own signing-keys.json;
 * - netlify dev's call again after a 403, counted once.
 * Every refusal, the other era and the other clients (the SDK's ClientCredentialsProvider among them) are in-process in
 * tests/doors/oauth*.test.ts and tests/doors/mcp.test.ts; the consent screen in Chromium is tests/browser/oauth.test.ts.
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
});

describe("a machine client gets a token and files a dry_run brief through /mcp", () => {
  it("a ChatGPT-style client: the SDK's PrivateKeyJwtProvider meets the 401, discovers, and gets a token with its assertion, signed by a key the runtime serves", async () => {
    const agent = await documents.publishKeyedClient("/agent.json", {
      client_name: "Keyed machine agent",
      grant_types: ["client_credentials"],
    });
    const { fetch: recorded, seen } = recording();
    const authProvider = keyedProvider(agent, base);
    const client = await connectMcp(endpoint, modern, { authProvider, fetch: recorded });
    const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
    expect(text(result)).toContain("Nothing was filed");
    expectTokenAfterChallenge(seen);
    // Its document and key set were fetched by the function, from this machine.
    expect(documents.hits.get("/agent.json")).toBe(1);
    expect(documents.hits.get("/agent.json.jwks")).toBe(1);

    // The key set as served: the running configuration's public keys (the runtime's signing-keys.json), never a private part.
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
    const { payload } = await jwtVerify(authProvider.tokens()!.access_token, createLocalJWKSet(set), {
      issuer: as.issuer,
      audience: endpoint,
      typ: "at+jwt",
      algorithms: ["ES256"],
    });
    expect(payload).toMatchObject({ client_id: agent.clientId, scope: "svc:read svc:brief" });
  });
});

describe("per-address limits through the local runtime", () => {
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
    const next = await fetch(as.authorization_endpoint!, { redirect: "manual" });
    expect([next.status, next.headers.get("location"), next.headers.get("content-type")]).toEqual([400, null, "text/html; charset=utf-8"]);
    expect(next.headers.get("ratelimit")).toMatch(/^"oauth";r=5[89];t=\d+$/);
    await next.body?.cancel();
    expect(await countedFor(store, "oauth", localClient)).toBe(2);
  });
});
