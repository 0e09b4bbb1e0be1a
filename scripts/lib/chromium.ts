import { spawnSync } from "node:child_process";

/**
 * The Chromium the browser tests, the OAuth conformance runner and the pages bench drive: Debian's (`apt-get install
 * chromium`), or `CHROMIUM_PATH`. Playwright cannot download its own here, and the Chromium an npm package ships (153)
 * has an older WebMCP than the tests read (docs/decisions.md).
 */
export const chromiumPath = (env: NodeJS.ProcessEnv = process.env): string => env.CHROMIUM_PATH || "/usr/bin/chromium";

/** The oldest Chromium the tests read (its WebMCP). */
export const oldestChromium = 156;

/** Why this machine cannot run the browser tests, in one line with the command that mends it; undefined when it can. */
export function chromiumMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = chromiumPath(env);
  const run = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 30_000 });
  const other = `set CHROMIUM_PATH to a Chromium ${oldestChromium} or later`;
  if (run.status === 0 && /chrom/i.test(run.stdout)) {
    const major = Number(/(\d+)\.\d+/.exec(run.stdout)?.[1]);
    if (!(major < oldestChromium)) return undefined;
    const how = env.CHROMIUM_PATH ? other : "upgrade it with `apt-get install --only-upgrade chromium`";
    return `npm test needs Chromium ${oldestChromium} or later for the browser tests, and ${path} is ${major}: ${how}, then run npm test again.`;
  }
  const how = env.CHROMIUM_PATH ? other : "install it with `apt-get install chromium`";
  const why = run.error
    ? ((run.error as NodeJS.ErrnoException).code ?? run.error.message)
    : `it answered --version with exit ${run.status}`;
  return `npm test needs Chromium for the browser tests, and ${path} cannot run (${why}): ${how}, then run npm test again.`;
}
