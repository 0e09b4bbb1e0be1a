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
let bundles: Awaited<ReturnType<typeof bundleFunctions>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "frontdoor-bundles-test-"));
  bundles = await bundleFunctions(root, join(root, "functions"), join(work, "functions"), "none");
});
afterAll(() => rm(work, { recursive: true, force: true }));

// netlify dev runs functions and edge functions from source; a deploy runs what Netlify's bundlers make of them.
describe("the bundles a Netlify deploy would upload", () => {
  it("bundles every function, and each bundled module loads in a fresh Node process", async () => {
    const sources = (await readdir(join(root, "functions"))).filter((file) => file.endsWith(".ts")).map((file) => file.slice(0, -3));
    expect(bundles.map((b) => b.name).sort()).toEqual(sources.sort());
    for (const bundle of bundles) {
      const check = `const m = await import(${JSON.stringify(pathToFileURL(bundle.module!).href)}); process.stdout.write(typeof m.default + " " + typeof m.config);`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", check], { cwd: bundle.path });
      expect(stdout, bundle.name).toBe("function object");
    }
  });

  // Each function loads its door on its first request: the bundle must hold the door too. Without a store configured,
  // only the door itself can answer, in its own format, that the deployment is misconfigured.
  it.each([
    ["mcp", "/mcp", "POST", /"jsonrpc":"2.0".*"code":-32093/],
    ["a2a", "/a2a/v1", "POST", /"jsonrpc":"2.0".*"code":-32093/],
    ["oauth", "/oauth/token", "POST", /"error":"server_error"/],
    ["jwks", "/.well-known/jwks.json", "GET", /"error":"server_error"/],
    ["briefs", "/api/v1/briefs", "POST", /"code":"service_unavailable"/],
    ["contact", "/contact", "POST", /<h1>Your brief was not sent<\/h1>/],
  ])("the %s bundle loads its door on the first request", async (name, path, method, body) => {
    const bundle = bundles.find((b) => b.name === name)!;
    const call = [
      `const m = await import(${JSON.stringify(pathToFileURL(bundle.module!).href)});`,
      `const res = await m.default(new Request("https://studio.example${path}", { method: "${method}" }), { ip: "203.0.113.1", waitUntil() {} });`,
      `process.stdout.write(res.status + " " + (await res.text()));`,
    ].join("\n");
    const env = { PATH: process.env.PATH, URL: "https://studio.example" };
    const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", call], { cwd: bundle.path, env });
    expect(stdout.slice(0, 3), stdout).toBe("503");
    expect(stdout.replace(/\s+(?=")/g, "")).toMatch(body);
  });

  it("bundles every edge function with the edge bundler, which loads each one in Deno to read its config", async () => {
    const edge = await bundleEdgeFunctions(root, join(work, "edge"));
    expect(edge.functions.sort()).toEqual(["api", "markdown", "media-types"]);
    expect(edge.bytes).toBeGreaterThan(0);
  });
});
