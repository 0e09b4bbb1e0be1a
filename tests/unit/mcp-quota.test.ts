import { beforeAll, describe, expect, it } from "vitest";
import { briefSchema } from "../../src/briefs/schema.ts";
import { Refusal } from "../../src/http/refusal.ts";
import type { Limiter, QuotaResult } from "../../src/limits/limiter.ts";
import type { PolicyName } from "../../src/limits/policies.ts";
import { createMcpHandler } from "../../src/mcp/http.ts";
import { mcpServerFrom, mcpServerParts, mcpTools } from "../../src/mcp/server.ts";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";
import { createAccessTokenVerifier } from "../../src/tokens/verify.ts";
import { prebuiltResources, siteSizeIds, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { freshBrief } from "../support/briefs.ts";
import { loadContentDir } from "../support/content.ts";

const base = "https://studio.example";
const headers = {
  host: "studio.example",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

/** A limiter whose count is answered only when the test says so. */
function heldLimiter() {
  let answer!: (allowed: boolean) => void;
  const counting = new Promise<boolean>((resolve) => (answer = resolve));
  const consume = async (policy: PolicyName) => {
    const allowed = await counting;
    return { policy, allowed, limit: 120, remaining: allowed ? 119 : 0, resetSeconds: 30 } satisfies QuotaResult;
  };
  const limiter: Limiter = { consume, consumeGrant: async (policy) => [await consume(policy)], refundGrant: async () => {} };
  return { limiter, answer };
}

let prebuilt: PrebuiltResources;
let token: string;
let verifier: ReturnType<typeof createAccessTokenVerifier>;
beforeAll(async () => {
  prebuilt = prebuiltResources(buildSite(await loadContentDir("content"), base));
  const keys = await importSigningKeys(JSON.stringify(await generateKeySet()));
  verifier = createAccessTokenVerifier({ baseUrl: base, jwks: keys.publicJwks });
  token = (
    await issueAccessToken(
      keys,
      base,
      { clientId: "fdc_quota_test", grantId: clientGrantId("fdc_quota_test"), scope: "svc:read svc:brief", audience: base },
      Date.now(),
    )
  ).access_token;
});

function door(limiter: Limiter) {
  const filed: unknown[] = [];
  const servers: number[] = [];
  const verified: unknown[] = [];
  const tools = mcpTools(
    prebuilt,
    {
      schema: briefSchema(siteSizeIds(prebuilt)),
      studio: prebuilt.site.name,
      responseTime: prebuilt.site.response_time,
      // Counts the filings that reach the pipeline; what they answer does not matter here.
      file: async (_, request) => {
        filed.push(request);
        throw new Refusal("idempotency_key_reused");
      },
      filedUnder: async () => null,
      checkKey: async () => undefined,
    },
    { booking: () => undefined, studio: prebuilt.site.name },
  );
  const parts = mcpServerParts(prebuilt, tools);
  const handler = createMcpHandler({
    baseUrl: base,
    allowedOrigins: [base],
    limiter,
    verifier: {
      ...verifier,
      verifyRequest: async (...args) => {
        const check = await verifier.verifyRequest(...args);
        verified.push(check);
        return check;
      },
    },
    createServer: (era) => (servers.push(1), mcpServerFrom(parts, era)),
    tools: parts.listed,
    card: {},
    log: () => {},
  });
  const post = (body: object, extra: Record<string, string> = {}) =>
    handler(new Request(`${base}/mcp`, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) }), {
      ip: "203.0.113.5",
      waitUntil: () => {},
    });
  return { post, filed, servers, verified };
}

/** Lets the handler go as far as it can: every turn of the event loop it may take after its token was verified. */
const settle = async () => {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
};
// A valid brief: only a valid one reaches the pipeline, which is what this counts.
const briefCall = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "submit_project_brief", arguments: freshBrief() } };

// The /mcp quota is counted while a read is answered, so a read does not wait for the store's round trip first; the
// answer still waits for the count, and a brief is filed only once the count allowed it.
describe("the /mcp quota, counted alongside reads", () => {
  it("answers a read the quota refuses with 429 and the read's id, not with the read", async () => {
    const { limiter, answer } = heldLimiter();
    const { post, servers } = door(limiter);
    const response = post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    await expect.poll(() => servers).toHaveLength(1);
    answer(false);
    const refused = await response;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 3, error: { data: { code: "rate_limited" } } });
  });

  it("files no brief before the quota allowed it, and none when it refuses", async () => {
    const { limiter, answer } = heldLimiter();
    const { post, filed, verified } = door(limiter);
    const response = post(briefCall, { authorization: `Bearer ${token}` });
    await expect.poll(() => verified).toHaveLength(1);
    await settle();
    expect(filed).toHaveLength(0);
    answer(false);
    expect((await response).status).toBe(429);
    expect(filed).toHaveLength(0);
  });

  it("files the brief once the quota allowed it", async () => {
    const { limiter, answer } = heldLimiter();
    const { post, filed, verified } = door(limiter);
    const response = post(briefCall, { authorization: `Bearer ${token}` });
    await expect.poll(() => verified).toHaveLength(1);
    await settle();
    expect(filed).toHaveLength(0);
    answer(true);
    expect((await response).status).toBe(200);
    expect(filed).toHaveLength(1);
  });
});

// The count starts once the body is read, weighed by its messages: a 2025-03-26 batch counts each of them, in one count.
describe("the /mcp quota, weighed by the messages a request carries", () => {
  /** A limiter that allows everything and remembers what each count cost. */
  function recordingLimiter() {
    const costs: number[] = [];
    const consume = async (policy: PolicyName, _key: string, cost = 1) => {
      costs.push(cost);
      return { policy, allowed: true, limit: 120, remaining: 120 - cost, resetSeconds: 30 } satisfies QuotaResult;
    };
    const limiter: Limiter = {
      consume,
      consumeGrant: async (policy, _grant, _ceiling, address, cost) => [await consume(policy, address, cost)],
      refundGrant: async () => {},
    };
    return { limiter, costs };
  }
  const read = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_company", arguments: {} } });

  it("counts a batch once, at one per message, with a token too; a refused batch and a request refused before it was read once, at one", async () => {
    const { limiter, costs } = recordingLimiter();
    const { post } = door(limiter);
    const v2025_03_26 = { "mcp-protocol-version": "2025-03-26" };
    expect((await post([read(1), read(2), read(3)], v2025_03_26)).status).toBe(200);
    expect((await post([read(1), read(2)], { ...v2025_03_26, authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await post(read(4))).status).toBe(200);
    expect((await post([read(5), read(6)])).status).toBe(400);
    expect((await post(read(7), { "content-type": "text/plain" })).status).toBe(415);
    expect(costs).toEqual([3, 2, 1, 1, 1]);
  });
});
