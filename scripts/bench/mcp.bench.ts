import { readFile } from "node:fs/promises";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { briefSchema } from "../../src/briefs/schema.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { createMcpHandler } from "../../src/mcp/http.ts";
import { createMcpServer, mcpServerFrom, mcpServerParts, mcpTools } from "../../src/mcp/server.ts";
import { generateKeySet, importSigningKeys } from "../../src/oauth/keys.ts";
import { createAccessTokenVerifier } from "../../src/oauth/verify.ts";
import { siteSizeIds, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { compare, describeFigures, measure } from "./stats.ts";
import { startStoreProcess } from "./store-process.ts";

/**
 * /mcp cost: our handler called in-process, wired as src/mcp/from-env.ts wires it (quota through the LOCAL STORE, in a process of
 * its own as Upstash is remote, over loopback HTTP, body limit, Origin and auth gate, then an SDK server per request from parts built once, and a stateless
 * transport) against a bare SDK server and transport built from nothing for every request, for tools/list and a read
 * tool call. A third line shows the bare server from the shared parts, so what the handler saves by sharing them is not
 * mistaken for the cost of its HTTP layer. Production Upstash adds a network round trip per request instead of
 * loopback. The local runtime is measured by emulator.bench.ts.
 */
const messages = {
  "tools/list": { jsonrpc: "2.0", id: 1, method: "tools/list" },
  "tools/call get_company": { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_company", arguments: {} } },
};
const baseHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

export default async function mcpBench() {
  const prebuilt = JSON.parse(
    await readFile(new URL("../../dist/api/v1/prebuilt.json", import.meta.url), "utf8").catch(() => {
      throw new Error("dist/ is missing: run npm run build first");
    }),
  ) as PrebuiltResources;
  const baseUrl = prebuilt.site.base_url;
  // A web Request carries no Host header of its own; an HTTP request always does, and the transport checks it.
  const headers = { ...baseHeaders, host: new URL(baseUrl).host };
  const tools = mcpTools(prebuilt, {
    schema: briefSchema(siteSizeIds(prebuilt)),
    studio: prebuilt.site.name,
    responseTime: prebuilt.site.response_time,
    file: () => Promise.reject(new Error("the bench files nothing")),
  });
  const store = await startStoreProcess();
  try {
    const redis = store.functionsRedis();
    const keys = await importSigningKeys(JSON.stringify(await generateKeySet()));
    const parts = mcpServerParts(prebuilt, tools);
    const handler = createMcpHandler({
      baseUrl,
      allowedOrigins: [new URL(baseUrl).origin],
      limiter: upstashLimiter(redis, { cacheBlocked: false }),
      verifier: createAccessTokenVerifier({ baseUrl, jwks: keys.publicJwks }),
      createServer: () => mcpServerFrom(parts),
      card: {},
    });
    let client = 0;
    const viaHandler = (body: object) => async () => {
      // A new client address each time, so the quota counts but never refuses.
      const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`;
      const response = await handler(new Request(`${baseUrl}/mcp`, { method: "POST", headers, body: JSON.stringify(body) }), {
        ip,
        waitUntil: () => {},
      });
      if (response.status !== 200) throw new Error(`handler answered ${response.status}`);
      await response.arrayBuffer();
    };
    const bare =
      (body: object, newServer = () => createMcpServer(prebuilt, tools)) =>
      async () => {
        const server = newServer();
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        const response = await transport.handleRequest(
          new Request(`${baseUrl}/mcp`, { method: "POST", headers, body: JSON.stringify(body) }),
        );
        await response.arrayBuffer();
        await server.close();
      };

    for (const [label, body] of Object.entries(messages)) {
      const { a: ours, b: sdk, ratio } = await compare(viaHandler(body), bare(body));
      const shared = await measure(bare(body, () => mcpServerFrom(parts)));
      console.log(describeFigures(`${label}: handler (local store, own process)`, ours));
      console.log(describeFigures(`${label}: bare SDK server`, sdk));
      console.log(`  throughput ratio handler / bare SDK: ${ratio.toFixed(2)} (median of interleaved rounds)`);
      console.log(describeFigures(`  the bare SDK server from the shared parts`, shared));
      console.log(`  throughput ratio handler / that: ${(ours.perSecond / shared.perSecond).toFixed(2)}\n`);
    }

    for (const [label, viaRedis] of [
      ["of which the quota alone (local store)", redis],
      ["  the same over the Upstash client's fetch", store.edgeRedis()],
    ] as const) {
      const limiter = upstashLimiter(viaRedis, { cacheBlocked: false });
      const quotaOnly = await measure(() => limiter.consume("mcp", `10.255.${(client >> 8) & 255}.${client++ & 255}`), { warmup: 300 });
      console.log(`${describeFigures(label, quotaOnly)}   CPU ${quotaOnly.cpuPerRun.toFixed(2)} ms`);
    }
  } finally {
    await store.close();
  }
}
