import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import yaml from "js-yaml";

/**
 * The pinned MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency): the server scenarios its
 * requirement sets name, and its CLI, one process per requirement set. tests/doors/mcp-conformance.test.ts runs them;
 * scripts/lib/oauth-conformance.ts runs its authorization-server runner.
 */
export const suiteDir = dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"));
export const suiteCli = join(suiteDir, "dist", "index.js");

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
export interface Check {
  id: string;
  status: CheckStatus;
  errorMessage?: string;
  details?: unknown;
}

/** A server scenario to run: at a revision's wire version (its requirement set), or, for an extension outside every set, at the version the suite picks. */
export interface PlannedScenario {
  scenario: string;
  revision: string | undefined;
  /** Why it is run without counting (the requirement set's `not_scored` reason, or `extension`); undefined when required. */
  notScored: string | undefined;
  extension: boolean;
}

interface RequirementSet {
  server?: string[];
  not_scored?: { scenario: string; leg: string; reason: string }[];
}

/** Every requirement set the installed suite ships (`requirements/<revision>.yaml`), by revision. */
export async function requirementSets(): Promise<Map<string, RequirementSet>> {
  const dir = join(suiteDir, "requirements");
  const sets = new Map<string, RequirementSet>();
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort())
    sets.set(file.slice(0, -".yaml".length), yaml.load(await readFile(join(dir, file), "utf8")) as RequirementSet);
  return sets;
}

const execute = promisify(execFile);

let listed: Promise<Map<string, string[]>> | undefined;
/** Every server scenario the suite has, with its tags (revisions, or `extension`), as `conformance list --server` prints them. */
export function listedServerScenarios(): Promise<Map<string, string[]>> {
  return (listed ??= execute(process.execPath, [suiteCli, "list", "--server"]).then(({ stdout }) => {
    const scenarios = new Map<string, string[]>();
    for (const [, name, tags] of stdout.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?$/gm)) scenarios.set(name!, tags ? tags.split(",") : []);
    return scenarios;
  }));
}

/**
 * The server scenarios to run: every `server` entry and every server-leg `not_scored` entry of every requirement set,
 * each at its set's revision (a scenario in two sets runs twice, once on each wire, as `--requirements` runs it), plus
 * the suite's extension scenarios that no set names. Read from the installed suite, so a new version cannot add a
 * scenario that goes unrun.
 */
export async function plannedServerScenarios(): Promise<PlannedScenario[]> {
  const planned: PlannedScenario[] = [];
  for (const [revision, set] of await requirementSets()) {
    for (const scenario of set.server ?? []) planned.push({ scenario, revision, notScored: undefined, extension: false });
    for (const { scenario, leg, reason } of set.not_scored ?? [])
      if (leg === "server") planned.push({ scenario, revision, notScored: reason, extension: reason === "extension" });
  }
  const named = new Set(planned.map((p) => p.scenario));
  for (const [scenario, tags] of await listedServerScenarios())
    if (!named.has(scenario) && tags.includes("extension"))
      planned.push({ scenario, revision: undefined, notScored: "extension", extension: true });
  return planned;
}

/**
 * One process of the suite's CLI: a whole requirement set (`--requirements <revision>`, its scenarios one after another
 * at its wire version, in the set's order), or one extension scenario outside every set (`--scenario`).
 */
export interface SuiteRun {
  name: string;
  scenarios: PlannedScenario[];
  args: string[];
}

/** The processes that run `planned`: one per requirement set, one per extension scenario that no set names. */
export function suiteRuns(planned: PlannedScenario[]): SuiteRun[] {
  const runs: SuiteRun[] = [];
  for (const revision of new Set(planned.flatMap((p) => (p.revision ? [p.revision] : []))))
    runs.push({ name: revision, scenarios: planned.filter((p) => p.revision === revision), args: ["--requirements", revision] });
  for (const p of planned.filter((p) => !p.revision)) runs.push({ name: p.scenario, scenarios: [p], args: ["--scenario", p.scenario] });
  return runs;
}

export interface ScenarioReport {
  checks: Check[];
  /** When the suite began the scenario (it makes the scenario's report folder first). */
  began: number;
}

export interface RunResult {
  seconds: number;
  /** When the process ended (epoch milliseconds). */
  ended: number;
  /** What the CLI printed, for a report that is missing. */
  output: string;
  reports: Map<PlannedScenario, ScenarioReport>;
  /** The scenarios that wrote a report, in the order the suite began them. */
  ran: string[];
}

/** A run's report folder: the suite writes `server-<scenario>-<time>/checks.json` into it for each scenario. */
export const reportFolder = () => mkdtemp(join(tmpdir(), "mcp-conformance-"));

/**
 * The scenario a run is in now, or undefined before its first: the suite makes each scenario's report folder before it
 * starts the scenario, and runs them one after another in the run's order, so the n-th folder is the n-th scenario's.
 * A request to the server under test, which a scenario sends after its folder exists, names its scenario this way.
 */
export function currentScenario(run: SuiteRun, folder: string): PlannedScenario | undefined {
  const made = readdirSync(folder).length;
  return made === 0 ? undefined : run.scenarios[made - 1];
}

/**
 * Runs `run` against `url` (the suite exits non-zero when a check fails, which is read from the reports instead) and
 * reads each scenario's report from `folder`. A scenario without one (the run stopped, or ran other scenarios than
 * planned) has no entry.
 */
export async function runSuite(run: SuiteRun, url: string, folder: string, timeoutMs = 300_000): Promise<RunResult> {
  const began = performance.now();
  const args = [suiteCli, "server", "--url", url, ...run.args, "-o", folder];
  const { stdout, stderr } = await execute(process.execPath, args, { timeout: timeoutMs, maxBuffer: 64 << 20 }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => ({
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? error.message,
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const ended = Date.now();
  const reports = new Map<PlannedScenario, ScenarioReport>();
  for (const name of await readdir(folder)) {
    const [, scenario, time] = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/.exec(name) ?? [];
    const p = run.scenarios.find((q) => q.scenario === scenario);
    const checks = JSON.parse(await readFile(join(folder, name, "checks.json"), "utf8").catch(() => "null")) as Check[] | null;
    if (p && checks) reports.set(p, { checks, began: Date.parse(isoTime(time!)) });
  }
  // The order the suite ran them in, as their folders were made (the same millisecond keeps the planned order).
  const ran = [...reports]
    .sort(([a, x], [b, y]) => x.began - y.began || run.scenarios.indexOf(a) - run.scenarios.indexOf(b))
    .map(([p]) => p.scenario);
  return { seconds, ended, output: `${stdout}\n${stderr}`, reports, ran };
}

/** `2026-11-25T12-36-18-440Z` → `2026-11-25T12:36:18.440Z`. */
function isoTime(time: string): string {
  const [date, rest] = time.split("T");
  const [h, m, sec, ms] = rest!.slice(0, -1).split("-");
  return `${date}T${h}:${m}:${sec}.${ms}Z`;
}

/** Runs `work` over `items`, at most `limit` at a time, in the items' order; gives the results in that order. */
export async function bounded<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
