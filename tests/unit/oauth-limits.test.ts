import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { formPost, inProcessOAuthServer, jsonPost } from "../support/oauth-server.ts";
import { countedFor } from "../support/quota-count.ts";

/**
 * The per-address quotas of the OAuth endpoints, in-process over the local store; each test uses its own client IPs, and
 * a test that counts to a limit starts a window on the test clock.
 */
let server: Awaited<ReturnType<typeof inProcessOAuthServer>>;
let clock: TestClock;
let documents: Server;
let origin: string;
let clientId: string;
const redirectUri = "http://127.0.0.1/cb";

beforeAll(async () => {
  clock = installClock();
  server = await inProcessOAuthServer({ allowLoopbackMetadataDocuments: true });
  const registered = await server.call(
    "/oauth/register",
    jsonPost({ client_name: "Limits", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
  );
  clientId = ((await registered.json()) as { client_id: string }).client_id;
  documents = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ client_id: `${origin}${req.url}`, redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }));
  });
  await new Promise<void>((r) => documents.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => documents.close(r));
  await server?.close();
  clock.restore();
});

let addresses = 0;
const newIp = () => `203.0.113.${++addresses}`;
const token = (ip: string) =>
  server.call("/oauth/token", formPost({ grant_type: "client_credentials", client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA" }), ip);
const authorizePath = (id = clientId) =>
  `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: id, redirect_uri: redirectUri, code_challenge: "a".repeat(43), code_challenge_method: "S256" })}`;
const authorize = (ip: string, id?: string) => server.call(authorizePath(id), {}, ip);

/** Counts `times` more requests of the address against the policy, as earlier requests would have. */
async function spend(policy: keyof typeof policies, ip: string, times: number) {
  for (let i = 0; i < times; i++) await server.options.limiter.consume(policy, ip);
}

describe("the oauth-token and oauth policies: /oauth/token, and /oauth/authorize per address", () => {
  it("reports the quota on every token answer and refuses past 60 a minute with 429 rate_limited JSON", async () => {
    clock.toNextWindow(60);
    const ip = newIp();
    const first = await token(ip);
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit-policy")).toBe('"oauth-token";q=60;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"oauth-token";r=59;t=\d+$/);
    await spend("oauth-token", ip, 59);
    const over = await token(ip);
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({
      error: "rate_limited",
      error_description: expect.stringMatching(/"oauth-token".*retry after \d+ seconds/),
    });
    expect(over.headers.get("retry-after")).toBe(over.headers.get("ratelimit-reset"));
    expect(over.headers.get("access-control-allow-origin")).toBe("*");
    expect(over.headers.get("access-control-expose-headers")).toContain("RateLimit");
    expect((await token(newIp())).status).toBe(401);
  });

  it("shows the consent error page with 429 past the limit, for the screen and the form alike, and never redirects", async () => {
    clock.toNextWindow(60);
    const ip = newIp();
    expect((await authorize(ip)).status).toBe(200);
    await spend("oauth", ip, 59);
    for (const res of [await authorize(ip), await server.call("/oauth/authorize", formPost({ decision: "approve" }), ip)]) {
      expect(res.status).toBe(429);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.headers.get("ratelimit")).toMatch(/^"oauth";r=0;t=\d+$/);
      expect(await res.text()).toContain("retry after");
    }
  });

  it("counts no preflight and no wrong method", async () => {
    const ip = newIp();
    await server.call("/oauth/token", { method: "OPTIONS" }, ip);
    expect((await server.call("/oauth/token", {}, ip)).status).toBe(405);
    expect(await countedFor(server.options.redis, "oauth-token", ip)).toBe(0);
  });
});

describe("the oauth-client-metadata policy", () => {
  it("reports both quotas when a document is fetched, and answers 429 with the metadata window's Retry-After past it", async () => {
    clock.toNextWindow(60);
    const ip = newIp();
    const first = await authorize(ip, `${origin}/first.json`);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60, "oauth-client-metadata";q=20;w=3600');
    expect(first.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+, "oauth-client-metadata";r=19;t=\d+$/);
    expect(first.headers.get("ratelimit-limit")).toBe("20");

    const cached = await authorize(ip, `${origin}/first.json`);
    expect(cached.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60');

    await spend("oauth-client-metadata", ip, 19);
    const over = await authorize(ip, `${origin}/second.json`);
    expect(over.status).toBe(429);
    expect(over.headers.get("location")).toBeNull();
    expect(over.headers.get("ratelimit-limit")).toBe("20");
    expect(over.headers.get("retry-after")).toBe(over.headers.get("ratelimit-reset"));
    expect(await over.text()).toContain("oauth-client-metadata");
  });
});

describe("the oauth-register policy", () => {
  it("reports the quota on a refused registration too", async () => {
    const res = await server.call("/oauth/register", jsonPost("{"), newIp());
    expect(res.status).toBe(400);
    expect(res.headers.get("ratelimit")).toMatch(/^"oauth-register";r=9;t=\d+$/);
  });
});
