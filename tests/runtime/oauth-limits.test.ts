import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "@upstash/redis";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { sha256 } from "../../src/oauth/clients.ts";
import { authorizeUrl, discover, postConsent, register } from "../support/oauth-client.ts";
import { inFreshWindow } from "../support/window.ts";

/**
 * The per-address limits of the authorization server and its answers to refused client metadata documents, through
 * the local runtime. Every request here comes from 127.0.0.1, so each test starts from fresh OAuth windows and moves a
 * counter close to its limit in the store rather than sending hundreds of requests.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const quotas = { oauth: 60, "oauth-client-metadata": 20 } as const;
const redirectUri = "http://127.0.0.1/callback";

let as: oauth.AuthorizationServer;
let client: oauth.Client;
let documents: Server;
let documentOrigin: string;
/** Requests the document server received, by path. */
const hits = new Map<string, number>();

beforeAll(async () => {
  as = await discover(base);
  client = await register(as, { client_name: "Limits client", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" });
  documents = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith("/good-")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ client_id: `${documentOrigin}${path}`, client_name: "Doc client", redirect_uris: [redirectUri] }));
    } else if (path.startsWith("/bad-json-")) {
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

/** Leaves `left` requests in the policy's current window (its counter exists once a request was counted). */
async function leave(policy: keyof typeof quotas, left: number) {
  const [key] = await store.keys(`rl:${policy}:*`);
  expect(key, `a counter for ${policy}`).toBeTruthy();
  await store.set(key!, quotas[policy] - left, { keepTtl: true });
}

let documentCount = 0;
const newDocument = (kind: "good" | "bad-json") => `${documentOrigin}/${kind}-${++documentCount}-${Date.now()}.json`;
const pathOf = (url: string) => new URL(url).pathname;

const authorize = (clientId = client.client_id) =>
  fetch(authorizeUrl(as, { client_id: clientId, redirect_uri: redirectUri, code_challenge: "a".repeat(43), state: "s" }), {
    redirect: "manual",
  });
const token = () =>
  fetch(as.token_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA", client_secret: "fds_x" }),
  });
const consentForm = async () => {
  const page = await authorize();
  expect(page.status).toBe(200);
  return {
    request: /name="request" value="([^"]+)"/.exec(await page.text())![1]!,
    cookie: page.headers.get("set-cookie")!.split(";")[0]!,
  };
};

const expectRefusedPage = async (res: Response) => {
  expect(res.status).toBe(429);
  expect(res.headers.get("location")).toBeNull();
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(await res.text()).toContain("This request cannot be completed");
};

describe("per-address limits on the OAuth endpoints", () => {
  it("counts /oauth/token per client IP and refuses past 60 a minute with 429 rate_limited, Retry-After and RateLimit", async () => {
    await inFreshWindow(60, 15);
    const first = await token();
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+$/);
    await leave("oauth", 1);
    const last = await token();
    expect(last.status).toBe(401);
    expect(last.headers.get("ratelimit")).toMatch(/^"oauth";r=0;t=\d+$/);

    const over = await token();
    expect(over.status).toBe(429);
    expect(over.headers.get("content-type")).toBe("application/json");
    expect(over.headers.get("cache-control")).toBe("no-store");
    expect(over.headers.get("ratelimit-limit")).toBe("60");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(over.headers.get("ratelimit-reset")));
    expect(over.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(await over.json()).toEqual({ error: "rate_limited", error_description: expect.stringContaining("retry") });
  });

  it("throttles GET /oauth/authorize with a 429 page, never a redirect to the unverified redirect URI", async () => {
    await inFreshWindow(60, 15);
    const page = await authorize();
    expect(page.status).toBe(200);
    expect(page.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+$/);
    await leave("oauth", 0);
    await expectRefusedPage(await authorize());
  });

  it("throttles the consent POST, and the refused form can still be answered once the window allows", async () => {
    await inFreshWindow(60, 15);
    const form = await consentForm();
    await leave("oauth", 0);
    const refused = await postConsent(as, { request: form.request, decision: "approve" }, form.cookie);
    expect(refused.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60');
    await expectRefusedPage(refused);

    await resetWindows();
    const answered = await postConsent(as, { request: form.request, decision: "approve" }, form.cookie);
    expect(answered.status).toBe(303);
    expect(new URL(answered.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });

  it("counts a refused consent POST once, though netlify dev retries its 403 at /oauth/authorize.html", async () => {
    // The emulator answers a 403 only after retrying it (about 10 s): the window must not roll over meanwhile.
    await inFreshWindow(60, 30);
    const refused = await postConsent(as, { decision: "approve" }, undefined, { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+$/);
    expect((await token()).headers.get("ratelimit")).toMatch(/^"oauth";r=58;t=\d+$/);
  });

  it("limits client metadata document fetches to 20 an hour per client IP; a cached document costs nothing", async () => {
    await inFreshWindow(60, 15);
    const known = newDocument("good");
    const first = await authorize(known);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60, "oauth-client-metadata";q=20;w=3600');
    expect(first.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+, "oauth-client-metadata";r=19;t=\d+$/);
    await leave("oauth-client-metadata", 0);

    const cached = await authorize(known);
    expect(cached.status).toBe(200);
    expect(hits.get(pathOf(known))).toBe(1);

    const unknown = newDocument("good");
    const refused = await authorize(unknown);
    expect(refused.headers.get("ratelimit")).toContain('"oauth-client-metadata";r=0;');
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(60);
    await expectRefusedPage(refused);
    expect(hits.get(pathOf(unknown))).toBeUndefined();
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
      newDocument("bad-json"),
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
    const clientId = newDocument("bad-json");
    expect((await authorize(clientId)).status).toBe(400);
    expect((await authorize(clientId)).status).toBe(400);
    expect(hits.get(pathOf(clientId))).toBe(1);
    const ttl = await store.ttl(`oauth:cimd:${await sha256(clientId)}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });
});
