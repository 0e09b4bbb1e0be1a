import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleEdgeFunctions, bundleFunctions } from "../../scripts/lib/netlify-bundles.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "frontdoor-bundles-test-"));
});
afterAll(() => rm(work, { recursive: true, force: true }));

// netlify dev runs functions and edge functions from source; a deploy runs what Netlify's bundlers make of them.
describe("the bundles a Netlify deploy would upload", () => {
  it("bundles every function, and each bundled module loads in a fresh Node process", async () => {
    const sources = (await readdir(join(root, "functions"))).filter((file) => file.endsWith(".ts")).map((file) => file.slice(0, -3));
    const bundles = await bundleFunctions(root, join(root, "functions"), join(work, "functions"), "none");
    expect(bundles.map((b) => b.name).sort()).toEqual(sources.sort());
    for (const bundle of bundles) {
      const check = `const m = await import(${JSON.stringify(pathToFileURL(bundle.module!).href)}); process.stdout.write(typeof m.default + " " + typeof m.config);`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", check], { cwd: bundle.path });
      expect(stdout, bundle.name).toBe("function object");
    }
  });

  it("bundles every edge function with the edge bundler, which loads each one in Deno to read its config", async () => {
    const edge = await bundleEdgeFunctions(root, join(work, "edge"));
    expect(edge.functions.sort()).toEqual(["api", "markdown", "media-types"]);
    expect(edge.bytes).toBeGreaterThan(0);
  });
});
