import { spawn } from "node:child_process";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

/**
 * `astro build` of the project's code over another content folder, into another output folder with its own cache:
 * what the build tests and the build benchmark run beside the real build, with `env` over this process's variables (the
 * settings the build reads). Resolves with the exit code and the output.
 */
export function buildContentInto(
  root: string,
  work: { contentDir: string; outDir: string; cacheDir: string; env?: Record<string, string> },
) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "node_modules/astro/bin/astro.mjs"), "build", "--outDir", work.outDir], {
      cwd: root,
      env: {
        ...process.env,
        ...work.env,
        FRONTDOOR_CONTENT_DIR: work.contentDir,
        FRONTDOOR_CACHE_DIR: work.cacheDir,
        ASTRO_TELEMETRY_DISABLED: "1",
      },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output: stripVTControlCharacters(output) }));
  });
}
