import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { json } from "../support/calls.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import { approvedCode, redeem, redirectUri } from "../support/deployment-oauth.ts";

/**
 * The per-client brief quotas that keep a client's briefs its own business, in-process: each test starts in a fresh
 * hour window, so a counter it moves to the limit cannot roll over under it. The site is local (its base URL on
 * localhost) so that client metadata documents may live on this machine, as in the local runtime's test mode.
 * tests/runtime/privacy.test.ts checks privacy through every door end to end.
 */
let clock: TestClock;
let d: Deployment;
let store: Redis;
beforeAll(async () => {
  clock = installClock();
  d = await startDeployment("local", { baseUrl: "http://localhost:8888", env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" } });
  store = new Redis({ url: d.store.url, token: d.store.token, enableTelemetry: false });
});
afterAll(async () => {
  await d.settle();
  await d.close();
  clock.restore();
});

const a2a = (message: object, token: string) =>
  d.a2a(
    json({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }, { "a2a-version": "1.0", authorization: `Bearer ${token}` }),
  );

describe("what the A2A agent stores is bounded", () => {
  it("counts invalid brief messages against the client's a2a-briefs quota", async () => {
    clock.toNextWindow(3600);
    const clientId = `client-${crypto.randomUUID()}`;
    const token = await d.token("svc:brief", clientId);
    const invalid = () =>
      a2a(
        {
          messageId: crypto.randomUUID(),
          role: "ROLE_USER",
          parts: [{ data: { full_name: "Ada" } }],
          metadata: { skillId: "svc-project-brief" },
        },
        token,
      );
    expect((await invalid()).headers.get("ratelimit-policy")).toMatch(/"a2a"/);
    const [key] = await store.keys(`rl:a2a-briefs:${clientId}:*`);
    expect(key).toBeDefined();
    await store.set(key!, 30, { keepTtl: true });
    const refused = await invalid();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-policy")).toContain('"a2a-briefs";q=30;w=3600');
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("clients identified by metadata documents", () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          client_id: `${origin}${req.url}`,
          client_name: "Doc client",
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: "none",
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const tokenFor = async (documentUrl: string) => {
    const { code, verifier } = await approvedCode(d, documentUrl);
    const res = await redeem(d, { client_id: documentUrl }, code, verifier);
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const brief = (token: string) => d.api("/api/v1/briefs", json(freshBrief(), { authorization: `Bearer ${token}` }));

  it("share one brief quota per host of their client_id URL", async () => {
    clock.toNextWindow(3600);
    const first = await tokenFor(`${origin}/one.json`);
    const second = await tokenFor(`${origin}/two.json`);
    expect((await brief(first)).status).toBe(201);
    const [key] = await store.keys(`rl:briefs-per-client:host:127.0.0.1*`);
    expect(key).toBeDefined();
    await store.set(key!, 10, { keepTtl: true });
    const refused = await brief(second);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe("brief_quota_exceeded");
  });
});
