import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, json } from "../support/calls.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import { approvedCode, redeem, registerClient } from "../support/deployment-oauth.ts";

/**
 * The per-address limits of the authorization server, in-process as functions/oauth.ts builds it: each test comes from
 * a client address of its own, starts with a fresh window and moves a counter close to its limit in the store rather
 * than sending hundreds of requests. The site is local (its base URL on localhost) so that client metadata documents
 * may live on this machine, as in the local runtime's test mode. tests/runtime/oauth.test.ts keeps what only the local
 * runtime shows (netlify dev's call again after a 403, counted once).
 */
const quotas = { oauth: 60, "oauth-token": 60, "oauth-client-metadata": 20 } as const;
const redirectUri = "http://127.0.0.1/callback";

let clock: TestClock;
let d: Deployment;
let store: Redis;
let clientId: string;
let documents: Server;
let documentOrigin: string;
/** Requests the document server received, by path. */
const hits = new Map<string, number>();

beforeAll(async () => {
  clock = installClock();
  d = await startDeployment("local", { baseUrl: "http://localhost:8888", env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" } });
  store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
  const registered = await d.oauth(
    "/oauth/register",
    json({ client_name: "Limits client", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
  );
  clientId = ((await registered.json()) as { client_id: string }).client_id;
  documents = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ client_id: `${documentOrigin}${path}`, client_name: "Doc client", redirect_uris: [redirectUri] }));
  });
  await new Promise<void>((r) => documents.listen(0, "127.0.0.1", r));
  documentOrigin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => documents.close(r));
  await d.close();
  clock.restore();
});

/** Leaves `left` requests in the policy's current window for the address (its counter exists once a request was counted). */
async function leave(policy: keyof typeof quotas, ip: string, left: number) {
  const [key] = await store.keys(`rl:${policy}:${ip}:*`);
  expect(key, `a counter for ${policy}`).toBeTruthy();
  await store.set(key!, quotas[policy] - left, { keepTtl: true });
}

let documentCount = 0;
const newDocument = () => `${documentOrigin}/good-${++documentCount}.json`;
const pathOf = (url: string) => new URL(url).pathname;

const authorize = (ip: string, id = clientId) =>
  d.oauth(
    `/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: id,
      redirect_uri: redirectUri,
      code_challenge: "a".repeat(43),
      code_challenge_method: "S256",
      state: "s",
    })}`,
    {},
    ip,
  );
const token = (ip: string) =>
  d.oauth("/oauth/token", form({ grant_type: "client_credentials", client_id: "fdc_AAAAAAAAAAAAAAAAAAAAAA", client_secret: "fds_x" }), ip);
const consentForm = async (ip: string) => {
  const page = await authorize(ip);
  expect(page.status).toBe(200);
  return {
    request: /name="request" value="([^"]+)"/.exec(await page.text())![1]!,
    cookie: page.headers.get("set-cookie")!.split(";")[0]!,
  };
};
const postConsent = (ip: string, consent: { request: string; cookie: string }) =>
  d.oauth("/oauth/authorize", form({ request: consent.request, decision: "approve" }, { cookie: consent.cookie, origin: d.baseUrl }), ip);

const expectRefusedPage = async (res: Response) => {
  expect(res.status).toBe(429);
  expect(res.headers.get("location")).toBeNull();
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(await res.text()).toContain("This request cannot be completed");
};

describe("per-address limits on the OAuth endpoints", () => {
  it("counts a /oauth/token request that identifies nothing per client IP and refuses past 60 a minute with 429 rate_limited", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const first = await token(ip);
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit-policy")).toBe('"oauth-token";q=60;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"oauth-token";r=59;t=\d+$/);
    await leave("oauth-token", ip, 1);
    const last = await token(ip);
    expect(last.status).toBe(401);
    expect(last.headers.get("ratelimit")).toMatch(/^"oauth-token";r=0;t=\d+$/);

    const over = await token(ip);
    expect(over.status).toBe(429);
    expect(over.headers.get("content-type")).toBe("application/json");
    expect(over.headers.get("cache-control")).toBe("no-store");
    expect(over.headers.get("ratelimit-limit")).toBe("60");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(over.headers.get("ratelimit-reset")));
    expect(over.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(await over.json()).toEqual({ error: "rate_limited", error_description: expect.stringContaining("retry") });
  });

  it("counts a code redemption against the grant it redeems and client_credentials against the client, never the address", async () => {
    clock.toNextWindow(60);
    const egress = d.nextIp();
    await token(egress);
    await leave("oauth-token", egress, 0);
    expect((await token(egress)).status).toBe(429);
    // A person approved in their own browser; their agent redeems from the address garbage has used up.
    const { code, verifier } = await approvedCode(d, clientId);
    const redeemed = await redeem(d, { client_id: clientId }, code, verifier, egress);
    expect(redeemed.status).toBe(200);
    expect(redeemed.headers.get("ratelimit-policy")).toBe('"oauth-token";q=60;w=60, "grants-per-address";q=3000;w=60');
    expect(redeemed.headers.get("ratelimit")).toMatch(/^"oauth-token";r=59;t=\d+, "grants-per-address";r=2999;t=\d+$/);
    // A machine client that proves itself is its own grant.
    const machine = await registerClient(d);
    const body = {
      grant_type: "client_credentials",
      client_id: machine.client_id,
      client_secret: machine.client_secret,
      scope: "svc:read",
    };
    const issued = await d.oauth("/oauth/token", form(body), egress);
    expect(issued.status).toBe(200);
    // Its address is the one it calls from; the person's grant counted where they approved it, not here.
    expect(issued.headers.get("ratelimit")).toMatch(/^"oauth-token";r=59;t=\d+, "grants-per-address";r=2999;t=\d+$/);
    // The same code again identifies nothing any more: the address's count, which is spent.
    expect((await redeem(d, { client_id: clientId }, code, verifier, egress)).status).toBe(429);
    // A wrong secret proves nothing either.
    expect((await d.oauth("/oauth/token", form({ ...body, client_secret: "fds_wrong" }), egress)).status).toBe(429);
  });

  it("counts client_credentials for a public client (anyone knows its client_id) against the address, never a grant", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const body = { grant_type: "client_credentials", client_id: clientId, scope: "svc:read" };
    const refused = await d.oauth("/oauth/token", form(body), ip);
    expect(await refused.json()).toMatchObject({ error: "unauthorized_client" });
    expect(refused.headers.get("ratelimit-policy")).toBe('"oauth-token";q=60;w=60');
    expect(refused.headers.get("ratelimit")).toMatch(/^"oauth-token";r=59;t=\d+$/);
    expect(await store.keys(`rl:grants-per-address:${ip}:*`)).toEqual([]);
  });

  it("throttles GET /oauth/authorize with a 429 page, never a redirect to the unverified redirect URI", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const page = await authorize(ip);
    expect(page.status).toBe(200);
    expect(page.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+$/);
    await leave("oauth", ip, 0);
    await expectRefusedPage(await authorize(ip));
  });

  it("throttles the consent POST, and the refused form can still be answered once the window allows", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    const consent = await consentForm(ip);
    await leave("oauth", ip, 0);
    const refused = await postConsent(ip, consent);
    expect(refused.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60');
    await expectRefusedPage(refused);

    clock.toNextWindow(60);
    const answered = await postConsent(ip, consent);
    expect(answered.status).toBe(303);
    expect(new URL(answered.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });

  it("limits client metadata document fetches to 20 an hour per client IP; a cached document costs nothing", async () => {
    clock.toNextWindow(3600);
    const ip = d.nextIp();
    const known = newDocument();
    const first = await authorize(ip, known);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"oauth";q=60;w=60, "oauth-client-metadata";q=20;w=3600');
    expect(first.headers.get("ratelimit")).toMatch(/^"oauth";r=59;t=\d+, "oauth-client-metadata";r=19;t=\d+$/);
    await leave("oauth-client-metadata", ip, 0);

    const cached = await authorize(ip, known);
    expect(cached.status).toBe(200);
    expect(hits.get(pathOf(known))).toBe(1);

    const unknown = newDocument();
    const refused = await authorize(ip, unknown);
    expect(refused.headers.get("ratelimit")).toContain('"oauth-client-metadata";r=0;');
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(60);
    await expectRefusedPage(refused);
    expect(hits.get(pathOf(unknown))).toBeUndefined();
  });
});
