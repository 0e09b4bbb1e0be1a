import "./node-check.ts";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { freePort } from "./lib/free-port.ts";
import { startIsolatedRuntime } from "./runtime/isolated.ts";

/**
 * npm run conformance:oauth [-- <suite dist/index.js>]: the MCP conformance suite's authorization-server runner
 * (metadata and authorization-code scenarios) against the local runtime, once for a client registered dynamically and
 * once for a client ID metadata document served on loopback. Where the runner asks a person to open the authorization
 * URL, Chromium opens it and clicks Approve on the consent page.
 */
const suite = process.argv[2] ?? process.env.MCP_CONFORMANCE_SUITE;
if (!suite) {
  console.error("usage: npm run conformance:oauth -- <conformance dist/index.js>   (or set MCP_CONFORMANCE_SUITE)");
  process.exit(2);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Opens the authorization URL, approves, and waits until the browser lands on the runner's callback. */
async function approve(browser: Browser, url: string, callbackOrigin: string) {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackOrigin)), page.getByRole("button", { name: "Approve" }).click()]);
    console.log(`[oauth-conformance] approved in Chromium, landed on ${new URL(page.url()).origin}${new URL(page.url()).pathname}`);
  } finally {
    await page.close();
  }
}

/** One run of the suite's runner for one client; resolves to its exit code. */
async function runSuite(browser: Browser, base: string, clientId: string, port: number): Promise<number> {
  const args = [suite!, "authorization", "--url", base, "--client-id", clientId, "--port", String(port)];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const authorize = `${base}/oauth/authorize?`;
  const approvals: Promise<void>[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    console.log(line);
    if (line.startsWith(authorize)) approvals.push(approve(browser, line, `http://127.0.0.1:${port}/callback`));
  }
  await Promise.all(approvals);
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code ?? 1))));
}

const runtime = await startIsolatedRuntime(root, { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  documentUrl = `${await listen(documentServer)}/client-metadata.json`;
  const base = runtime.url;
  const results: [string, number][] = [];

  const dcrPort = await freePort();
  const registered = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "MCP conformance (registered)",
      application_type: "native",
      redirect_uris: [`http://127.0.0.1:${dcrPort}/callback`],
      token_endpoint_auth_method: "none",
    }),
  });
  if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
  const { client_id } = (await registered.json()) as { client_id: string };
  console.log(`\n[oauth-conformance] dynamically registered client ${client_id}\n`);
  results.push(["registered client (DCR)", await runSuite(browser, base, client_id, dcrPort)]);

  console.log(`\n[oauth-conformance] client ID metadata document ${documentUrl}\n`);
  results.push(["metadata-document client (CIMD)", await runSuite(browser, base, documentUrl, await freePort())]);

  console.log("\n[oauth-conformance] summary");
  for (const [name, code] of results) console.log(`${code === 0 ? "PASS" : "FAIL"}  ${name}`);
  process.exitCode = results.every(([, code]) => code === 0) ? 0 : 1;
} finally {
  await browser.close();
  await new Promise((r) => documentServer.close(r));
  await runtime.stop();
}
