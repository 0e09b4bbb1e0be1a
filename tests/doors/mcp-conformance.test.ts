import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { serveWeb, type WebServer } from "../../scripts/lib/serve-web.ts";
import {
  bounded,
  currentScenario,
  listedServerScenarios,
  plannedServerScenarios,
  reportFolder,
  runSuite,
  suiteRuns,
  type Check,
  type PlannedScenario,
  type RunResult,
} from "../../scripts/lib/conformance-suite.ts";
import { policies } from "../../src/limits/policies.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import { declaredExtensionScenarios, notApplicable, onBriefTool } from "./mcp-conformance-not-applicable.ts";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against /mcp, built as functions/mcp.ts
 * builds it and served over HTTP from this process (every request, its Host header included, reaches the function as
 * sent). Every server scenario of every requirement set the installed suite ships runs at its set's revision, as
 * `--requirements` runs it (one process per set), and the suite's extension scenarios that no set names run too
 * (scripts/lib/conformance-suite.ts reads both from the suite, so a new version cannot add a scenario that goes unrun).
 * Each scenario passes, or the checks that cannot pass here are listed in mcp-conformance-not-applicable.ts with the
 * reason; so do the scenarios of the Skills extension, which /mcp declares, with every check run; the other extension
 * scenarios are reported, not required. docs/decisions.md, "MCP conformance".
 *
 * All from one client address, as a person running the suite would: each scenario is a client of its own, with an
 * access token of its own, which the front in front of /mcp adds to each of its requests.
 */
const address = "203.0.113.7";

interface Client {
  authorization: string;
  /** The input-required fixture tools called as submit_project_brief (see onBriefTool). */
  briefTool: boolean;
  requests: number;
  refusedByQuota: number;
}

const planned = await plannedServerScenarios();
const runs = suiteRuns(planned);
const key = ({ scenario, revision }: PlannedScenario) => `${revision ?? "extension"} ${scenario}`;

let d: Deployment;
let server: WebServer;
const clients = new Map<PlannedScenario, Client>();
const folders: string[] = [];
const results: RunResult[] = [];
/** Requests that reached the front before any scenario began, or outside every run's path. */
let unattributed = 0;
let seconds = 0;

beforeAll(async () => {
  // The site's own origin is where it is served, as the allowed hosts and origins follow the base URL.
  const port = await freePort();
  d = await startDeployment("local", { baseUrl: `http://127.0.0.1:${port}` });
  for (const p of planned) {
    const briefTool = onBriefTool[p.revision ?? ""]?.includes(p.scenario) ?? false;
    const token = await d.token(briefTool ? "svc:read svc:brief" : "svc:read");
    clients.set(p, { authorization: `Bearer ${token}`, briefTool, requests: 0, refusedByQuota: 0 });
  }
  folders.push(...(await Promise.all(runs.map(() => reportFolder()))));
  const brief = freshBrief();
  server = await serveWeb(
    async (request) => {
      const client = clientOf(request);
      const response = await d.serve(client ? await asClient(client, request, brief) : request, address);
      if (client && response.status === 429) client.refusedByQuota += 1;
      return response;
    },
    { port },
  );

  const began = performance.now();
  // Each run is a Node process: two at a time for two cores, the longest (the requirement sets) first.
  results.push(...(await bounded(runs, 2, (run, n) => runSuite(run, `${d.baseUrl}/conformance/${n}/mcp`, folders[n]!))));
  seconds = (performance.now() - began) / 1000;
});

afterAll(async () => {
  await server?.close();
  await d?.close();
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});

/** The scenario a request comes from: its run by its path, and the scenario that run is in. */
function clientOf(request: Request): Client | undefined {
  const match = /^\/conformance\/(\d+)\/mcp$/.exec(new URL(request.url).pathname);
  const n = match ? Number(match[1]) : -1;
  const scenario = runs[n] ? currentScenario(runs[n], folders[n]!) : undefined;
  const client = scenario && clients.get(scenario);
  if (client) client.requests += 1;
  else unattributed += 1;
  return client;
}

/**
 * The request as the scenario's client sends it to /mcp: with its token, and, for a scenario on the brief tool, the
 * suite's input-required fixture tools (called with no arguments) called as submit_project_brief with one valid brief.
 */
async function asClient(client: Client, request: Request, brief: Record<string, unknown>): Promise<Request> {
  const headers = new Headers(request.headers);
  if (!headers.has("authorization")) headers.set("authorization", client.authorization);
  let body = request.method === "POST" ? await request.text() : undefined;
  if (client.briefTool && body) {
    const message = parsed(body) as { method?: string; params?: { name?: string; arguments?: unknown } } | undefined;
    if (message?.method === "tools/call" && message.params?.name?.startsWith("test_input_required_result")) {
      message.params = { ...message.params, name: "submit_project_brief", arguments: brief };
      headers.set("mcp-name", "submit_project_brief");
      body = JSON.stringify(message);
    }
  }
  return new Request(new URL("/mcp", request.url), { method: request.method, headers, body });
}

/** A JSON body, or undefined for one that is not JSON (passed on as sent). */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * The checks of a report that did not pass: every FAILURE and WARNING (the suite fails a run on either), and, when no
 * check of the scenario's own succeeded (the suite's wire-schema check aside), its SKIPPED and INFO checks too: a
 * scenario that only skips or reports is no pass. A check the suite skips in a scenario that passes (an optional
 * feature /mcp does not declare, such as listChanged) is the suite's own verdict and stands.
 */
function notPassed(checks: Check[]): string[] {
  const nothingPassed = !checks.some((c) => c.id !== "wire-schema-valid" && c.status === "SUCCESS");
  const failed = checks.filter(
    (c) => ["FAILURE", "WARNING"].includes(c.status) || (nothingPassed && ["SKIPPED", "INFO"].includes(c.status)),
  );
  return [...new Set(failed.map((c) => c.id))].sort();
}

const reportOf = (p: PlannedScenario) => {
  const n = runs.findIndex((run) => run.scenarios.includes(p));
  return { report: results[n]?.reports.get(p), result: results[n] };
};

const count = (checks: Check[], ...statuses: string[]) => checks.filter((c) => statuses.includes(c.status)).length;

describe("MCP conformance suite", () => {
  const numbered = planned.map((p) => ({ p, name: key(p) }));

  it("runs every server scenario the suite has, each set in its own order", async () => {
    const named = new Set(planned.map((p) => p.scenario));
    expect([...(await listedServerScenarios()).keys()].filter((s) => !named.has(s))).toEqual([]);
    // The n-th report folder of a run is its n-th scenario's: how the front knows which scenario a request is from.
    for (const [n, run] of runs.entries()) expect(results[n]!.ran, results[n]!.output).toEqual(run.scenarios.map((p) => p.scenario));
    expect(unattributed).toBe(0);
  });

  it("lists only scenarios it runs", () => {
    const named = (lists: Record<string, Record<string, unknown> | string[]>) =>
      Object.entries(lists).flatMap(([revision, scenarios]) =>
        (Array.isArray(scenarios) ? scenarios : Object.keys(scenarios)).map((s) => `${revision} ${s}`),
      );
    const run = new Set(planned.map(key));
    const declared = declaredExtensionScenarios.map((s) => `extension ${s}`);
    expect([...named(notApplicable), ...named(onBriefTool), ...declared].filter((s) => !run.has(s))).toEqual([]);
  });

  const required = (p: PlannedScenario) => !p.extension || declaredExtensionScenarios.includes(p.scenario);

  it.each(numbered.filter(({ p }) => required(p)))("$name passes, but for the checks listed as not applicable", ({ p }) => {
    const { report, result } = reportOf(p);
    expect(report, `no report:\n${result?.output}`).toBeDefined();
    const { checks } = report!;
    const listed = new Set((notApplicable[p.revision ?? "extension"]?.[p.scenario] ?? []).flatMap((entry) => entry.checks));
    // The scenarios of a declared extension run every check: one skipped (as when the declaration is missing) is no pass.
    const failed = p.extension ? [...new Set(checks.filter((c) => c.status !== "SUCCESS").map((c) => c.id))].sort() : notPassed(checks);
    const why = [
      ...checks.filter((c) => failed.includes(c.id) && !listed.has(c.id)).map((c) => `did not pass: ${JSON.stringify(c, null, 2)}`),
      ...[...listed].filter((id) => !failed.includes(id)).map((id) => `listed as not applicable, but passed or did not run: ${id}`),
    ];
    expect(failed, why.join("\n")).toEqual([...listed].sort());
  });

  it.each(numbered.filter(({ p }) => !required(p)))("$name (an extension /mcp does not declare) runs and is reported", ({ p }) => {
    const { report, result } = reportOf(p);
    expect(report?.checks.length, `no report:\n${result?.output}`).toBeGreaterThan(0);
  });

  it("counts each scenario's requests, none refused by the quota", () => {
    const lines: string[] = [];
    for (const [n, run] of runs.entries()) {
      const result = results[n]!;
      const requests = run.scenarios.reduce((sum, p) => sum + clients.get(p)!.requests, 0);
      lines.push(`  ${run.name}: ${run.scenarios.length} scenarios, ${requests} requests, ${result.seconds.toFixed(1)} s`);
      const began = run.scenarios.map((p) => result.reports.get(p)?.began ?? Number.NaN);
      for (const [i, p] of run.scenarios.entries()) {
        const checks = result.reports.get(p)?.checks ?? [];
        const own = checks.filter((c) => c.id !== "wire-schema-valid");
        const schema = checks.find((c) => c.id === "wire-schema-valid")?.status ?? "none";
        const ms = (began[i + 1] ?? result.ended) - began[i]!;
        lines.push(
          `    ${p.scenario}${p.extension ? " (extension)" : ""}: ${clients.get(p)!.requests} requests, ${ms} ms; its own checks ` +
            `${count(own, "SUCCESS")} passed, ${count(own, "FAILURE", "WARNING")} failed, ${count(own, "SKIPPED")} skipped; wire schema ${schema}`,
        );
      }
    }
    const total = [...clients.values()].reduce((sum, c) => sum + c.requests, 0);
    console.log(
      [`MCP conformance: ${planned.length} scenario runs, ${total} requests from one address in ${seconds.toFixed(1)} s`, ...lines].join(
        "\n",
      ),
    );
    expect(
      [...clients].filter(([, c]) => c.refusedByQuota > 0).map(([p]) => key(p)),
      "refused by /mcp's quota (429): every request of the run comes from one address, each scenario's with its own token",
    ).toEqual([]);
    // Each scenario is a client with a token of its own: its requests must fit one client's quota.
    expect(Math.max(...[...clients.values()].map((c) => c.requests))).toBeLessThan(policies.mcp.quota);
  });
});
