import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The suite passes on a loaded machine (docs/decisions.md, "A test waits on events; a bound only catches a hang"): no
 * test stands a fixed wait for an event, and every bound is the shared patience (tests/support/patience.ts), which
 * vitest.config.ts gives every expect.poll and every project's time limits. This reads tests/ for what breaks that.
 */
const tests = fileURLToPath(new URL("..", import.meta.url));
const self = fileURLToPath(import.meta.url);

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith(".ts") && path !== self) yield path;
  }
}
const files = [...sources(tests)].map((path) => ({ name: relative(tests, path), text: readFileSync(path, "utf8") }));

/** The arguments of each call of `callee` in `text`, split at their top-level commas (strings skipped). */
function callsOf(text: string, callee: string): string[][] {
  const found: string[][] = [];
  for (let at = text.indexOf(`${callee}(`); at >= 0; at = text.indexOf(`${callee}(`, at + 1)) {
    if (/[\w$.]/.test(text[at - 1] ?? "") && !callee.includes(".")) continue;
    const args: string[] = [];
    let depth = 0;
    let current = "";
    let quote: string | undefined;
    for (let i = at + callee.length + 1; i < text.length; i++) {
      const c = text[i]!;
      if (quote) {
        if (c === "\\") current += c + text[++i];
        else current += c;
        if (c === quote) quote = undefined;
        continue;
      }
      if (c === '"' || c === "'" || c === "`") quote = c;
      if ("([{".includes(c)) depth += 1;
      if (")]}".includes(c)) {
        if (depth === 0) {
          args.push(current.trim());
          break;
        }
        depth -= 1;
      }
      if (c === "," && depth === 0) {
        args.push(current.trim());
        current = "";
      } else current += c;
    }
    found.push(args.filter((arg) => arg !== ""));
  }
  return found;
}

const numeric = /^[\d_]+$/;
const where = (check: (text: string) => string[]) => files.flatMap(({ name, text }) => check(text).map((what) => `${name}: ${what}`));

/** Timers that wait a fixed time, each with why that is not a wait for an event a loaded machine could delay. */
const fixedWaits: Record<string, string> = {
  "support/netlify-dev-log.ts": "the interval between two reads of a log file, in a loop bounded by the patience",
  "runtime/front.test.ts": "gives an abandoned upload time to reach the front: a loaded machine can only let a broken front pass",
  "unit/runtime-front.test.ts": "shows the front hands nothing on meanwhile: a loaded machine can only let a broken front pass",
  "own-runtime/netlify-dev-starved.test.ts":
    "paces its look at the kernel's socket table for the store connection it waits for; the starvation it then makes is its own clock",
};

describe("the suite's waits", () => {
  it("finds the calls it reads", () => {
    expect(callsOf("expect.poll(() => f(1, 2), { interval: 5 })", "expect.poll")).toEqual([["() => f(1, 2)", "{ interval: 5 }"]]);
    expect(callsOf('sleep(100); mysleep(5); sleep(")", 7)', "sleep")).toEqual([["100"], ['")"', "7"]]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("gives no expect.poll a timeout of its own: the project's is the shared patience", () => {
    // `.poll(` whether written `expect.poll(` or `expect` and `.poll(` on the next line.
    const own = where((text) => callsOf(text, ".poll").flatMap(([, options]) => (/\btimeout\s*:/.test(options ?? "") ? [options!] : [])));
    expect(own).toEqual([]);
  });

  it("uses no vi.waitFor, whose own default gives up after a second", () => {
    expect(where((text) => callsOf(text, "vi.waitFor").map(([fn]) => fn!))).toEqual([]);
  });

  it("sets no test's or hook's own time limit: the project's is the shared one", () => {
    const runners = ["it", "test", "describe", "beforeAll", "afterAll", "beforeEach", "afterEach"];
    const own = (args: string[]) =>
      args.some((arg) => /^\{[^}]*\btimeout\s*:/.test(arg)) || (args.length > 1 && numeric.test(args.at(-1)!));
    const limits = where((text) => [
      ...runners.flatMap((runner) => callsOf(text, runner).flatMap((args) => (own(args) ? [`${runner}(${args[0]}, …)`] : []))),
      // The limit after an it.each table's test, on the line that closes it.
      ...[...text.matchAll(/^\s*\}\)?, [\d_]+\);$/gm)].map((m) => m[0].trim()),
    ]);
    expect(limits).toEqual([]);
  });

  it("waits a fixed time only where the list says why that stands for no event", () => {
    const waits = files.flatMap(({ name, text }) =>
      ["setTimeout", "sleep"].flatMap((timer) =>
        callsOf(text, timer)
          .filter((args) => numeric.test(args.at(-1) ?? ""))
          .map((args) => ({ name, call: `${timer}(${args.join(", ")})` })),
      ),
    );
    expect(waits.filter(({ name }) => !(name in fixedWaits)).map(({ name, call }) => `${name}: ${call}`)).toEqual([]);
    // Each reason still stands for a wait of its file.
    expect(Object.keys(fixedWaits).filter((name) => !waits.some((wait) => wait.name === name))).toEqual([]);
  });

  it("gives every limiter the test builds a timeout of its own, as @upstash/ratelimit lets a request through on its timeout", () => {
    const bare = where((text) =>
      callsOf(text, "upstashLimiter").flatMap((args) => (args.join(",").includes("timeoutMs") ? [] : [args.join(", ")])),
    );
    expect(bare).toEqual([]);
  });
});
