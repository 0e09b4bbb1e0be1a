import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { bundleEdgeFunctions, bundleFunctions, type FunctionBundle } from "../lib/netlify-bundles.ts";

const run = promisify(execFile);
const coldStarts = Number(process.env.BENCH_COLD_STARTS ?? 9);

/**
 * What each function costs the operator: its bundle as Netlify's own bundlers make it (zip-it-and-ship-it for
 * functions, the edge bundler for edge functions), and its cold start: the time a fresh Node process takes to import
 * the bundled module (module initialisation, before any request), against a one-line function bundled the same way.
 */
export default async function functionsBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const work = await mkdtemp(join(tmpdir(), "frontdoor-bundles-"));
  try {
    const baselineDir = join(work, "baseline-src");
    await mkdir(baselineDir);
    await writeFile(join(baselineDir, "baseline.mjs"), 'export default () => new Response("ok");\n');

    const zips = await bundleFunctions(root, join(root, "functions"), join(work, "zip"), "zip");
    const folders = await bundleFunctions(root, join(root, "functions"), join(work, "unpacked"), "none");
    const [baseline] = await bundleFunctions(root, baselineDir, join(work, "baseline"), "none");
    const edge = await bundleEdgeFunctions(root, join(work, "edge"));

    const timings = new Map<string, number[]>();
    const subjects = [baseline!, ...folders];
    for (let round = 0; round < coldStarts; round++) {
      for (const bundle of subjects) {
        const times = timings.get(bundle.name) ?? [];
        times.push(await importTime(bundle));
        timings.set(bundle.name, times);
      }
    }
    const median = (name: string) => {
      const sorted = [...timings.get(name)!].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)]!;
    };

    const base = median(baseline!.name);
    console.log(`Cold start = importing the bundled module in a fresh Node ${process.version} process, median of ${coldStarts}.`);
    console.log(`baseline (a one-line function): ${kb(baseline!.bytes)} unpacked, module init ${base.toFixed(1)} ms\n`);
    console.log("function        zip        unpacked   init ms   ×baseline   npm packages traced (files)");
    for (const zip of zips.sort((a, b) => a.name.localeCompare(b.name))) {
      const folder = folders.find((f) => f.name === zip.name)!;
      const init = median(zip.name);
      const packages = [...folder.packages].sort((a, b) => b[1] - a[1]).map(([name, files]) => `${name} (${files})`);
      console.log(
        `${zip.name.padEnd(15)} ${kb(zip.bytes).padStart(9)}  ${kb(folder.bytes).padStart(9)}  ${init.toFixed(1).padStart(7)}   ${(init / base).toFixed(1).padStart(8)}   ${packages.join(", ")}`,
      );
    }
    console.log(`\nedge functions (${edge.functions.join(", ")}): one eszip of ${kb(edge.bytes)}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function importTime(bundle: FunctionBundle): Promise<number> {
  if (!bundle.module) throw new Error(`no module found in the bundle of ${bundle.name}`);
  const entry = pathToFileURL(bundle.module).href;
  const script = `const t = performance.now(); await import(${JSON.stringify(entry)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", script], { cwd: bundle.path });
  return Number(stdout);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
