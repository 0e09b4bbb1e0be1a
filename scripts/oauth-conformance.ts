import "./node-check.ts";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { chromiumPath } from "./lib/chromium.ts";
import { freePort } from "./lib/free-port.ts";
import { registerRunnerClient, runAuthorization } from "./lib/oauth-conformance.ts";
import { startIsolatedRuntime } from "./runtime/isolated.ts";

/**
 * npm run conformance:oauth: the pinned MCP conformance suite's authorization-server runner (metadata and
 * authorization-code scenarios) against the local runtime, as `npm start` runs it, once for a client registered
 * dynamically and once for a client ID metadata document served on loopback, each check printed as the runner prints
 * it. Where the runner asks a person to open the authorization URL, Chromium opens it and clicks Approve on the consent
 * page. tests/doors/oauth-conformance.test.ts runs the same in-process as part of `npm test`.
 */
const root = fileURLToPath(new URL("..", import.meta.url));

const runtime = await startIsolatedRuntime(root, { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" });
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let documentUrl = "";
const documentServer = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  // A loopback redirect URI registered without a port matches the runner's callback on any port (RFC 8252 §7.3).
  res.end(
    JSON.stringify({
      client_id: documentUrl,
      client_name: "MCP conformance (metadata document)",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
    }),
  );
});
try {
  await new Promise<void>((r) => documentServer.listen(0, "127.0.0.1", r));
  documentUrl = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}/client-metadata.json`;
  const base = runtime.url;
  const run = (clientId: string, port: number) =>
    runAuthorization({ browser, issuer: base, clientId, port, resource: `${base}/mcp`, onLine: (line) => console.log(line) });
  const results: [string, number][] = [];

  const dcrPort = await freePort();
  const client_id = await registerRunnerClient(base, dcrPort);
  console.log(`\n[oauth-conformance] dynamically registered client ${client_id}\n`);
  results.push(["registered client (DCR)", (await run(client_id, dcrPort)).exitCode]);

  console.log(`\n[oauth-conformance] client ID metadata document ${documentUrl}\n`);
  results.push(["metadata-document client (CIMD)", (await run(documentUrl, await freePort())).exitCode]);

  console.log("\n[oauth-conformance] summary");
  for (const [name, code] of results) console.log(`${code === 0 ? "PASS" : "FAIL"}  ${name}`);
  process.exitCode = results.every(([, code]) => code === 0) ? 0 : 1;
} finally {
  await browser.close();
  await new Promise((r) => documentServer.close(r));
  await runtime.stop();
}
