import { readFile } from "node:fs/promises";
import { createMcpHandler as sdkHandler, WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";
import { briefSchema } from "../../src/briefs/schema.ts";
import { upstashLimiter, type Limiter, type QuotaResult } from "../../src/limits/limiter.ts";
import type { PolicyName } from "../../src/limits/policies.ts";
import { formDecisions } from "../../src/mcp/form-decisions.ts";
import { createMcpHandler } from "../../src/mcp/http.ts";
import { requestStateCodec } from "../../src/mcp/request-state.ts";
import { createMcpServer, mcpServerFrom, mcpServerParts, mcpTools } from "../../src/mcp/server.ts";
import { skillsCatalog } from "../../src/mcp/skills.ts";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";
import { createAccessTokenVerifier } from "../../src/tokens/verify.ts";
import { siteSizeIds, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { compare, describeFigures, measure } from "./stats.ts";
import { startStoreProcess } from "./store-process.ts";

/**
 * /mcp cost, in both protocol eras: our handler called in-process, wired as src/mcp/from-env.ts wires it (quota through
 * the LOCAL STORE, in a process of its own as Upstash is remote, over loopback HTTP, body limit, Origin and Host, auth
 * gate, then an SDK server per request from parts built once, the skills and the form's signed state among them)
 * against the bare v2 SDK serving the same era (the same tools, resources and prompts) with a server built from nothing
 * for every request: for 2026-07-28 its own entry (`createMcpHandler`, modern only), for the 2025
 * era a stateless transport per request (JSON answers, as ours). tools/list and a read tool call each. A third line
 * shows the bare SDK with a server from the shared parts, so what the handler saves by sharing them is not mistaken for
 * the cost of its HTTP layer; a fourth the same handler with a quota that allows at once, so the store's round trip is
 * not mistaken for the cost of the rest; a fifth the bare SDK after the same quota command, awaited, so the handler's own
 * cost is read apart from the store's round trip. First, what building one request's server costs. Production Upstash adds a
 * network round trip per request instead of loopback. The local runtime is measured by emulator.bench.ts.
 */
const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const eras = {
  "2026-07-28": {
    "tools/list": {
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    },
    "tools/call get_company": {
      body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_company", arguments: {}, _meta: envelope } },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_company" },
    },
  },
  "2025-11-25": {
    "tools/list": { body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers: { "mcp-protocol-version": "2025-11-25" } },
    "tools/call get_company": {
      body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_company", arguments: {} } },
      headers: { "mcp-protocol-version": "2025-11-25" },
    },
  },
};
const baseHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

export default async function mcpBench() {
  const prebuilt = JSON.parse(
    await readFile(new URL("../../dist/api/v1/prebuilt.json", import.meta.url), "utf8").catch(() => {
      throw new Error("dist/ is missing: run npm run build first");
    }),
  ) as PrebuiltResources;
  const baseUrl = prebuilt.site.base_url;
  // A web Request carries no Host header of its own; an HTTP request always does, and the handler checks it.
  const host = new URL(baseUrl).host;
  const tools = mcpTools(
    prebuilt,
    {
      schema: briefSchema(siteSizeIds(prebuilt)),
      studio: prebuilt.site.name,
      responseTime: prebuilt.site.response_time,
      file: () => Promise.reject(new Error("the bench files nothing")),
      filedUnder: () => Promise.reject(new Error("the bench files nothing")),
      checkKey: () => Promise.reject(new Error("the bench files nothing")),
    },
    { booking: () => undefined, studio: prebuilt.site.name },
  );
  const store = await startStoreProcess();
  try {
    const redis = store.functionsRedis();
    const keys = await importSigningKeys(JSON.stringify(await generateKeySet()));
    // The handler's parts as /mcp deploys them: the skills, and the signed state of a confirmation form.
    const skillsPath = new URL("../../dist/api/v1/prebuilt-skills.json", import.meta.url);
    const skillFiles: Record<string, string> = JSON.parse(await readFile(skillsPath, "utf8"));
    const confirmations = { state: requestStateCodec(async () => [new Uint8Array(32)]), decisions: formDecisions(redis) };
    const deployed = mcpServerParts(prebuilt, tools, confirmations, await skillsCatalog(skillFiles));
    // The bare SDK's shared parts: the same tools, resources and prompts, without the extension.
    const parts = mcpServerParts(prebuilt, tools);
    const handlerWith = (limiter: Limiter) =>
      createMcpHandler({
        baseUrl,
        allowedOrigins: [new URL(baseUrl).origin],
        limiter,
        verifier: createAccessTokenVerifier({ baseUrl, jwks: keys.publicJwks }),
        createServer: (era, method) => mcpServerFrom(deployed, era, method),
        tools: deployed.listed,
        card: {},
      });
    const counted = upstashLimiter(redis, { cacheBlocked: false });
    const handler = handlerWith(counted);
    // The same handler with a quota that allows every request at once, without asking a store.
    const allowed = (policy: PolicyName): QuotaResult => ({ policy, allowed: true, limit: 1, remaining: 1, resetSeconds: 60 });
    const withoutStore = handlerWith({
      consume: async (policy) => allowed(policy),
      consumeGrant: async (policy, _grant, ceiling) => [allowed(policy), allowed(ceiling)],
      refundGrant: async () => {},
    });
    type Message = { body: object; headers: Record<string, string> };
    const request = ({ body, headers }: Message) =>
      new Request(`${baseUrl}/mcp`, { method: "POST", headers: { ...baseHeaders, ...headers, host }, body: JSON.stringify(body) });
    const answered = async (response: Response) => {
      if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    let client = 0;
    // A new client address each time, so the quota counts but never refuses.
    const via = (door: typeof handler) => (message: Message) => async () =>
      answered(
        await door(request(message), { ip: `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`, waitUntil: () => {} }),
      );
    const viaHandler = via(handler);
    // The SDK's 2026-07-28 entry is made once, as a deployment makes it; it builds a server per request.
    const bareModern = (newServer: () => McpServer) => {
      const entry = sdkHandler(newServer, { legacy: "reject" });
      return (message: Message) => async () => answered(await entry.fetch(request(message)));
    };
    const bareLegacy = (newServer: () => McpServer) => (message: Message) => async () => {
      const server = newServer();
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      await answered(await transport.handleRequest(request(message)));
      await server.close();
    };
    const bare = {
      "2026-07-28": {
        fresh: bareModern(() => createMcpServer(prebuilt, tools, "modern")),
        shared: bareModern(() => mcpServerFrom(parts, "modern")),
      },
      "2025-11-25": { fresh: bareLegacy(() => createMcpServer(prebuilt, tools)), shared: bareLegacy(() => mcpServerFrom(parts)) },
    };

    // First, before any store command's timers are pending: what building a request's server costs, each in a turn of the
    // event loop of its own as requests are (the skills' catalog keeps a WeakRef to every server it is attached to, which
    // holds the server until the turn ends).
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    for (const [label, build] of [
      ["a request's server, as deployed, for tools/call", () => mcpServerFrom(deployed, "modern", "tools/call")],
      ["  the same for skills/list (with the skills)", () => mcpServerFrom(deployed, "modern", "skills/list")],
      ["  from nothing (the bare SDK's, without skills)", () => createMcpServer(prebuilt, tools, "modern")],
    ] as const) {
      const built = await measure(async () => (build(), await turn()), { warmup: 500, count: 5000 });
      console.log(`${describeFigures(label, built)}   CPU ${(built.cpuPerRun * 1000).toFixed(0)} µs`);
    }

    for (const [era, messages] of Object.entries(eras) as [keyof typeof eras, Record<string, Message>][]) {
      for (const [label, message] of Object.entries(messages)) {
        const { a: ours, b: sdk, ratio } = await compare(viaHandler(message), bare[era].fresh(message));
        const shared = await measure(bare[era].shared(message));
        const { a: storeless, ratio: storelessRatio } = await compare(via(withoutStore)(message), bare[era].fresh(message));
        // The bare SDK behind the same one command, awaited before it answers, as any quota that can refuse must be.
        const bareCounted = async () => {
          await counted.consume("mcp", `10.254.${(client >> 8) & 255}.${client++ & 255}`);
          await bare[era].fresh(message)();
        };
        const { b: sdkCounted, ratio: countedRatio } = await compare(viaHandler(message), bareCounted);
        console.log(describeFigures(`${era} ${label}: handler (local store, own process)`, ours));
        console.log(describeFigures(`${era} ${label}: bare v2 SDK`, sdk));
        console.log(`  throughput ratio handler / bare SDK: ${ratio.toFixed(2)} (median of interleaved rounds)`);
        console.log(describeFigures(`  the bare SDK with a server from the shared parts`, shared));
        console.log(`  throughput ratio handler / that: ${(ours.perSecond / shared.perSecond).toFixed(2)}`);
        console.log(describeFigures(`  the handler, its quota allowed without a store`, storeless));
        console.log(`  throughput ratio that / bare SDK: ${storelessRatio.toFixed(2)} (median of interleaved rounds)`);
        console.log(describeFigures(`  the bare SDK after the quota's one command`, sdkCounted));
        console.log(`  throughput ratio handler / that: ${countedRatio.toFixed(2)} (median of interleaved rounds)\n`);
      }
    }

    for (const [label, viaRedis] of [
      ["of which the quota alone (local store)", redis],
      ["  the same over the Upstash client's fetch", store.edgeRedis()],
    ] as const) {
      const limiter = upstashLimiter(viaRedis, { cacheBlocked: false });
      const quotaOnly = await measure(() => limiter.consume("mcp", `10.255.${(client >> 8) & 255}.${client++ & 255}`), { warmup: 300 });
      console.log(`${describeFigures(label, quotaOnly)}   CPU ${quotaOnly.cpuPerRun.toFixed(2)} ms`);
    }

    // The partition: a request with a valid token counts its grant and its address's ceiling (one script), one without
    // counts its address (the library's script). Each is one command; units.bench.ts counts them at the store.
    const limiter = upstashLimiter(redis, { cacheBlocked: false });
    let n = 0;
    const address = () => `10.253.${(n >> 8) & 255}.${n & 255}`;
    const partitions = await compare(
      () => limiter.consumeGrant("mcp", `ga_bench${String(n++).padStart(18, "0")}`, "grants-per-address", address()),
      () => limiter.consume("mcp", address()),
    );
    console.log(describeFigures("quota for a grant and its address's ceiling (one script)", partitions.a));
    console.log(describeFigures("quota for an address (the library's script)", partitions.b));
    console.log(`  throughput ratio grant / address: ${partitions.ratio.toFixed(2)} (median of interleaved rounds)`);
    // Tokens of 500 grants in turn, so the quota counts but never refuses, as new addresses do for the line below.
    const tokens = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const grant = { clientId: `bench-${i}`, grantId: clientGrantId(`bench-${i}`), scope: "svc:read", audience: baseUrl };
        return (await issueAccessToken(keys, baseUrl, grant, Date.now())).access_token;
      }),
    );
    const message = eras["2026-07-28"]["tools/call get_company"];
    const withToken = async () =>
      answered(
        await handler(
          new Request(`${baseUrl}/mcp`, {
            method: "POST",
            headers: { ...baseHeaders, ...message.headers, host, authorization: `Bearer ${tokens[n++ % tokens.length]}` },
            body: JSON.stringify(message.body),
          }),
          {
            ip: address(),
            waitUntil: () => {},
          },
        ),
      );
    const requests = await compare(withToken, viaHandler(message));
    console.log(describeFigures("2026-07-28 tools/call get_company with a token (its grant counted)", requests.a));
    console.log(describeFigures("  the same without a token (its address counted)", requests.b));
    console.log(`  throughput ratio with / without a token: ${requests.ratio.toFixed(2)} (the token's ES256 check included)`);
  } finally {
    await store.close();
  }
}
