import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "@upstash/redis";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { sha256 } from "../../src/oauth/clients.ts";
import { authorizeUrl, discover, postConsent } from "../support/oauth-client.ts";
import { countedFor, localClient } from "../support/quota-count.ts";

/**
 * The authorization server's answers to refused client metadata documents, and its quota as netlify dev's calls again
 * after a 403 leave it, through the local runtime. Every request here comes from 127.0.0.1, so each test starts from
 * fresh OAuth windows. The limits themselves, which need client addresses and windows of their own, are in
 * tests/doors/oauth-limits.test.ts.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const redirectUri = "http://127.0.0.1/callback";

let as: oauth.AuthorizationServer;
let documents: Server;
let documentOrigin: string;
/** Requests the document server received, by path. */
const hits = new Map<string, number>();

beforeAll(async () => {
  as = await discover(base);
  documents = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith("/bad-json-")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{ not json");
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => documents.listen(0, "127.0.0.1", r));
  documentOrigin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => documents.close(r)));

const resetWindows = async () => {
  const keys = [...(await store.keys("rl:oauth:*")), ...(await store.keys("rl:oauth-client-metadata:*"))];
  if (keys.length > 0) await store.del(...keys);
};
beforeEach(resetWindows);

let documentCount = 0;
const badJsonDocument = () => `${documentOrigin}/bad-json-${++documentCount}-${Date.now()}.json`;
const pathOf = (url: string) => new URL(url).pathname;

const authorize = (clientId: string) =>
  fetch(authorizeUrl(as, { client_id: clientId, redirect_uri: redirectUri, code_challenge: "a".repeat(43), state: "s" }), {
    redirect: "manual",
  });
const token = () =>
  fetch(as.token_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA", client_secret: "fds_x" }),
  });

describe("per-address limits through the local runtime", () => {
  it("counts a refused consent POST once, though netlify dev retries its 403 at /oauth/authorize.html", async () => {
    const refused = await postConsent(as, { decision: "approve" }, undefined, { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+$/);
    // Counted once, in whatever window the emulator's calls again fell (the next request shows 58 left, or 59 in a
    // window that started meanwhile).
    expect(await countedFor(store, "oauth", localClient)).toBe(1);
    expect((await token()).headers.get("ratelimit")).toMatch(/^"oauth";r=5[89];t=\d+$/);
    expect(await countedFor(store, "oauth", localClient)).toBe(2);
  });
});

describe("refused client metadata documents", () => {
  it("get one and the same answer whatever the reason", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));

    const pages: string[] = [];
    for (const clientId of [
      `http://127.0.0.1:${closedPort}/refused-connection.json`,
      badJsonDocument(),
      `${documentOrigin}/missing-${Date.now()}.json`,
      "https://10.0.0.1/private-address.json",
      "https://studio.example/a/../client.json",
    ]) {
      const res = await authorize(clientId);
      expect(res.status, clientId).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      pages.push(await res.text());
    }
    expect(pages[0]).toContain("This request cannot be completed");
    for (const page of pages.slice(1)) expect(page).toBe(pages[0]);
  });

  it("are fetched once per cache period: a second request for the same URL does not reach its server", async () => {
    const clientId = badJsonDocument();
    expect((await authorize(clientId)).status).toBe(400);
    expect((await authorize(clientId)).status).toBe(400);
    expect(hits.get(pathOf(clientId))).toBe(1);
    const ttl = await store.ttl(`oauth:cimd:${await sha256(clientId)}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });
});
