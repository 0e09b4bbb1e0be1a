import "./node-check.ts";
import { spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumMissing } from "./lib/chromium.ts";

/**
 * npm test: formatting, every test project and the type check, at once. The runtime project (one local runtime, its
 * files one at a time) and the in-process project (one worker) are the long lanes; the own-runtime project starts its
 * npm start once the runtime's build is done (it copies dist/); Prettier, then the build project (it reads that dist/)
 * and the type check (it reads the .astro/ that build writes) run at a lower priority: no lane waits for them, so they
 * take the cores the lanes leave while those wait (docs/performance.md). Every step's output is shown as it comes, each
 * line marked with its step; a summary ends the run.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (path: string) => join(root, "node_modules", path);
const color = process.stdout.isTTY ? { FORCE_COLOR: "1" } : {};
const width = 11;

interface Outcome {
  name: string;
  code: number | null;
  seconds: number;
}

/** Runs a Node program, its output lines marked with `name`. */
function run(name: string, args: string[], env: NodeJS.ProcessEnv = {}, niceness = 0): Promise<Outcome> {
  const began = performance.now();
  const seconds = () => (performance.now() - began) / 1000;
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...color, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  if (niceness && child.pid) setPriority(child.pid, niceness);
  const tag = `${name.padEnd(width)}│ `;
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`${tag}${line}\n`);
    });
    stream.on("end", () => partial && process.stdout.write(`${tag}${partial}\n`));
  }
  return new Promise((resolve) => {
    child.on("close", (code) => resolve({ name, code, seconds: seconds() }));
    child.on("error", (error) => {
      process.stdout.write(`${tag}${error.message}\n`);
      resolve({ name, code: 1, seconds: seconds() });
    });
  });
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Resolves once `file` exists, or once `done` settles (the runtime project ended without starting its runtime). */
async function whenExists(file: string, done: Promise<unknown>): Promise<void> {
  let ended = false;
  void done.then(() => (ended = true));
  while (!ended && !(await exists(file))) await new Promise((r) => setTimeout(r, 250));
}

/** The niceness of the steps no test lane waits for. */
const background = 10;

const vitest = (...projects: string[]) => [bin("vitest/vitest.mjs"), "run", ...projects.flatMap((p) => ["--project", p])];

// What npm cannot install is checked first, in one line, rather than found by nine failing files minutes later.
const missing = chromiumMissing();
if (missing) {
  console.error(missing);
  process.exit(1);
}

const began = performance.now();
const signals = await mkdtemp(join(tmpdir(), "frontdoor-test-"));
// tests/support/global-runtime.ts writes this file once the runtime is up: its build (dist/, .astro/) is complete.
const runtimeUp = join(signals, "runtime-up");

const runtime = run("runtime", vitest("runtime"), { FRONTDOOR_TEST_RUNTIME_UP: runtimeUp });
const afterTheBuild = (step: () => Promise<Outcome>) => whenExists(runtimeUp, runtime).then(step);
const outcomes = await Promise.all([
  runtime,
  run("in-process", [...vitest("in-process"), "--maxWorkers=1"]),
  // It copies the checkout with dist/ (tests/support/runtime-of-its-own.ts): once the build is done.
  afterTheBuild(() => run("own-runtime", vitest("own-runtime"))),
  (async () => {
    // No step here waits on anything: at a lower priority, they take the cores the test lanes leave while they wait.
    const steps = [await run("prettier", [bin("prettier/bin/prettier.cjs"), "--check", "."], {}, background)];
    steps.push(await afterTheBuild(() => run("build", vitest("build"), {}, background)));
    steps.push(await run("tsc", [bin("typescript7/bin/tsc"), "--noEmit"], {}, background));
    return steps;
  })(),
]).then((all) => all.flat());
await rm(signals, { recursive: true, force: true });

console.log(`\nnpm test: ${((performance.now() - began) / 1000).toFixed(0)} s`);
for (const { name, code, seconds } of outcomes)
  console.log(`  ${name.padEnd(width)} ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
process.exitCode = outcomes.some((o) => o.code !== 0) ? 1 : 0;
