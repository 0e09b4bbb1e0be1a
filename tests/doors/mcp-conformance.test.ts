import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "@upstash/redis";
import { beforeEach, describe, expect, inject, it } from "vitest";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp through the local runtime, on
 * the Node that runs the tests (24). Only the server scenarios that apply to this server; docs/decisions.md says why
 * the others do not.
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

const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const cli = join(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"), "..", "dist", "index.js");
const run = promisify(execFile);

beforeEach(async () => {
  const keys = await store.keys("rl:mcp:*");
  if (keys.length > 0) await store.del(...keys);
});

describe("MCP conformance suite", () => {
  it.each(applicableScenarios)("passes %s", async (scenario) => {
    const { stdout } = await run(process.execPath, [cli, "server", "--url", `${base}/mcp`, "--scenario", scenario], {
      timeout: 50_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${scenario} failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
    });
    expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  });
});
