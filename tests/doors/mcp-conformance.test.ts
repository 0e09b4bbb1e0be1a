import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { serveWeb, type WebServer } from "../../scripts/lib/serve-web.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp, built as functions/mcp.ts builds
 * it and served over HTTP from this process (every request, its Host header included, reaches the function as sent),
 * on the Node that runs the tests (24). Only the server scenarios that apply to this server; docs/decisions.md says why
 * the others do not. tests/runtime/mcp.test.ts drives /mcp through the local runtime with the SDK's own client.
 *
 * npm's 0.1.16 stops at 2025-11-25. The suite's 2026-07-28 scenarios are not published yet: MCP_CONFORMANCE_2026 names a
 * build of its repository (the `dist/index.js` it builds) to run them too; without it they are skipped.
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

/**
 * The 2026-07-28 scenarios that apply, each with the checks that only the suite's own fixture tools can exercise
 * (`test_missing_capability`, `test_streaming_elicitation`, `test_logging_tool`): they fail as "not testable" here.
 */
export const applicableScenarios2026: Record<string, string[]> = {
  "server-stateless": [
    "sep-2575-server-rejects-undeclared-capability",
    "sep-2575-missing-capability-http-400",
    "sep-2575-http-server-no-independent-requests-on-stream",
    "sep-2575-server-no-log-without-loglevel",
  ],
  "tools-list": [],
  "resources-list": [],
  "prompts-list": [],
  "sep-2164-resource-not-found": [],
  "dns-rebinding-protection": [],
  caching: [],
  "http-header-validation": [],
  // No tool needed: tools/list and prompts/list never answer input_required.
  "input-required-result-unsupported-methods": [],
};

/**
 * The 2026-07-28 input-required scenarios run against submit_project_brief, the one tool that asks for input: the suite
 * calls its own fixture tools (`test_input_required_result_*`, with no arguments and no token), so a front at
 * /fixtures/mcp renames them to submit_project_brief, with one valid brief for arguments and a token with svc:brief, and
 * passes everything else on as sent. Each lists the checks that only the suite's fixture tool can pass: fixed input
 * keys and answers (`user_name`, `{ name: "Alice" }`), a tool that always asks (our tool files at once for a client
 * that declares no form elicitation), or an answer taken without the state the server handed out.
 */
export const onBriefTool2026: Record<string, string[]> = {
  "input-required-result-result-type": [],
  "input-required-result-tampered-state": [],
  "input-required-result-missing-input-response": [],
  "input-required-result-validate-input": [],
  "input-required-result-capability-check": ["sep-2322-respect-client-capabilities"],
  "input-required-result-ignore-extra-params": ["sep-2322-ignore-unexpected-params"],
};
const suite2026 = process.env.MCP_CONFORMANCE_2026;

const cli = join(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"), "..", "dist", "index.js");
const run = promisify(execFile);

let d: Deployment;
let server: WebServer;
beforeAll(async () => {
  // The site's own origin is where it is served, as the allowed hosts and origins follow the base URL.
  const port = await freePort();
  d = await startDeployment("local", { baseUrl: `http://127.0.0.1:${port}` });
  const fixtures = await briefToolFront();
  // One client address for the whole suite, as the runtime gives every client: its quota of 120 a minute is ample.
  server = await serveWeb(async (request) => d.serve(await fixtures(request), "203.0.113.7"), { port });
});

/** /fixtures/mcp: the suite's input-required fixture tools, called as submit_project_brief (see onBriefTool2026). */
async function briefToolFront() {
  const brief = freshBrief();
  const authorization = `Bearer ${await d.token("svc:brief")}`;
  return async (request: Request): Promise<Request> => {
    if (new URL(request.url).pathname !== "/fixtures/mcp") return request;
    const message = (await request.json()) as { method?: string; params?: { name?: string; arguments?: unknown } };
    const headers = new Headers(request.headers);
    headers.set("authorization", authorization);
    if (message.method === "tools/call" && message.params?.name?.startsWith("test_input_required_result")) {
      message.params = { ...message.params, name: "submit_project_brief", arguments: brief };
      headers.set("mcp-name", "submit_project_brief");
    }
    return new Request(new URL("/mcp", request.url), { method: "POST", headers, body: JSON.stringify(message) });
  };
}
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

describe.skipIf(!suite2026)("MCP conformance suite at 2026-07-28 (MCP_CONFORMANCE_2026)", () => {
  const scenarios = [
    ...Object.entries(applicableScenarios2026).map(([scenario, needFixtures]) => ({ scenario, needFixtures, path: "/mcp" })),
    ...Object.entries(onBriefTool2026).map(([scenario, needFixtures]) => ({ scenario, needFixtures, path: "/fixtures/mcp" })),
  ];
  it.concurrent.each(scenarios)("passes $scenario at $path", async ({ scenario, needFixtures, path }) => {
    // The report is read from the file the suite writes: its printed report can be cut short when it exits.
    const out = await mkdtemp(join(tmpdir(), "mcp-conformance-"));
    try {
      const args = [
        suite2026!,
        "server",
        "--url",
        `${d.baseUrl}${path}`,
        "--scenario",
        scenario,
        "--spec-version",
        "2026-07-28",
        "-o",
        out,
      ];
      // It exits non-zero when a check fails.
      await run(process.execPath, args, { timeout: 50_000 }).catch(() => undefined);
      const [dir] = await readdir(out);
      const checks = JSON.parse(await readFile(join(out, dir!, "checks.json"), "utf8")) as { id: string; status: string }[];
      expect(checks.length).toBeGreaterThan(0);
      const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
      expect(failed.map((c) => c.id).sort(), JSON.stringify(failed, null, 2)).toEqual([...needFixtures].sort());
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
