import { spawnSync } from "node:child_process";

/**
 * The Chromium the browser tests, the OAuth conformance runner and the pages bench drive: Debian's (`apt-get install
 * chromium`), or `CHROMIUM_PATH`. Playwright cannot download its own here, and the Chromium an npm package ships (153)
 * has an older WebMCP than the tests read (docs/decisions.md).
 */
export const chromiumPath = (env: NodeJS.ProcessEnv = process.env): string => env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Why this machine cannot run the browser tests, in one line with the command that mends it; undefined when it can. */
export function chromiumMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = chromiumPath(env);
  const run = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (run.status === 0 && /chrom/i.test(run.stdout)) return undefined;
  const how = env.CHROMIUM_PATH ? "set CHROMIUM_PATH to a Chromium 156 or later" : "install it with `apt-get install chromium`";
  const why = run.error
    ? ((run.error as NodeJS.ErrnoException).code ?? run.error.message)
    : `it answered --version with exit ${run.status}`;
  return `npm test needs Chromium for the browser tests, and ${path} cannot run (${why}): ${how}, then run npm test again.`;
}
