import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { serveWeb, type WebServer } from "../../scripts/lib/serve-web.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp, built as functions/mcp.ts builds
 * it and served over HTTP from this process (every request, its Host header included, reaches the function as sent),
 * on the Node that runs the tests (24). Only the server scenarios that apply to this server; docs/decisions.md says why
 * the others do not. tests/runtime/mcp.test.ts drives /mcp through the local runtime with the SDK's own client.
 */
export const applicableScenarios = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "logging-set-level",
  "dns-rebinding-protection",
];

const cli = join(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"), "..", "dist", "index.js");
const run = promisify(execFile);

let d: Deployment;
let server: WebServer;
beforeAll(async () => {
  // The site's own origin is where it is served, as the allowed hosts and origins follow the base URL.
  const port = await freePort();
  d = await startDeployment("local", { baseUrl: `http://127.0.0.1:${port}` });
  // One client address for the whole suite, as the runtime gives every client: its quota of 120 a minute is ample.
  server = await serveWeb((request) => d.serve(request, "203.0.113.7"), { port });
});
afterAll(async () => {
  await server.close();
  await d.close();
});

describe("MCP conformance suite", () => {
  it.concurrent.each(applicableScenarios)("passes %s", async (scenario) => {
    const { stdout } = await run(process.execPath, [cli, "server", "--url", `${d.baseUrl}/mcp`, "--scenario", scenario], {
      timeout: 50_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${scenario} failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
    });
    expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  });
});
