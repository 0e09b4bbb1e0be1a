import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { generateKeySet } from "../../src/tokens/keys.ts";
import { buildDoors, packagesIn, type doors } from "../lib/doors.ts";
import { bundleEdgeFunctions, bundleFunctions, type FunctionBundle } from "../lib/netlify-bundles.ts";
import { startLocalStore } from "../local-store/store.ts";

const run = promisify(execFile);
const coldStarts = Number(process.env.BENCH_COLD_STARTS ?? 9);
const baseUrl = "https://studio.example";

/** A cheap request each function really serves (with a store and keys configured), and the status it answers. */
const firstRequests: Record<string, { path: string; method: string; body?: unknown; headers?: Record<string, string>; status: number }> = {
  baseline: { path: "/", method: "GET", status: 200 },
  a2a: {
    path: "/a2a/v1",
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: {
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ data: { skill: "offers" } }] } },
    },
    status: 200,
  },
  briefs: { path: "/api/v1/briefs", method: "POST", headers: { "content-type": "application/json" }, body: {}, status: 401 },
  // Booking configured (nothing reaches Cal.com: a booking without a token is refused first).
  bookings: { path: "/api/v1/bookings", method: "POST", headers: { "content-type": "application/json" }, body: {}, status: 401 },
  contact: { path: "/contact", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "", status: 422 },
  "deliver-leads": { path: "/.netlify/functions/deliver-leads", method: "POST", body: { next_run: "2030-01-01T00:00:00Z" }, status: 200 },
  jwks: { path: "/.well-known/jwks.json", method: "GET", status: 200 },
  mcp: {
    path: "/mcp",
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    status: 200,
  },
  oauth: { path: "/oauth/token", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "", status: 400 },
};

/**
 * What each function costs the operator: its bundle as Netlify's own bundlers make it (zip-it-and-ship-it for
 * functions, the edge bundler for edge functions), its cold start, and its first request. Module init is the time a
 * fresh Node process takes to import the bundled module; the first request adds serving one cheap request the function
 * really answers (its door loaded and wired, the store on the local store), so deferring work is not mistaken for
 * saving it. Both against a one-line function bundled and called the same way.
 */
export default async function functionsBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const work = await mkdtemp(join(tmpdir(), "frontdoor-bundles-"));
  const store = await startLocalStore({ token: "bench", snapshotFile: join(work, "store.json") });
  try {
    const { metafile } = await buildDoors(root);
    const baselineDir = join(work, "baseline-src");
    await mkdir(baselineDir);
    await writeFile(join(baselineDir, "baseline.mjs"), 'export default () => new Response("ok");\n');

    const zips = await bundleFunctions(root, join(root, "functions"), join(work, "zip"), "zip");
    const folders = await bundleFunctions(root, join(root, "functions"), join(work, "unpacked"), "none");
    const [baseline] = await bundleFunctions(root, baselineDir, join(work, "baseline"), "none");
    const edge = await bundleEdgeFunctions(root, join(work, "edge"));
    const env = {
      ...process.env,
      URL: baseUrl,
      UPSTASH_REDIS_REST_URL: store.url,
      UPSTASH_REDIS_REST_TOKEN: store.token,
      OAUTH_SIGNING_KEYS: JSON.stringify(await generateKeySet()),
      CAL_EVENT_TYPE_ID: "1",
      CAL_API_KEY: "cal_bench",
    };

    const timings = new Map<string, { init: number[]; first: number[] }>();
    const subjects = [baseline!, ...folders];
    for (let round = 0; round < coldStarts; round++) {
      for (const [index, bundle] of subjects.entries()) {
        const times = timings.get(bundle.name) ?? { init: [], first: [] };
        const { init, first } = await coldStart(bundle, env, `10.${round}.${index}.1`);
        times.init.push(init);
        times.first.push(first);
        timings.set(bundle.name, times);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const init = (name: string) => median(timings.get(name)!.init);
    const first = (name: string) => median(timings.get(name)!.first);

    const base = baseline!.name;
    console.log(`Cold start = a fresh Node ${process.version} process importing the bundled module, median of ${coldStarts}.`);
    console.log("First request = that, then serving one cheap request (see firstRequests) with the local store.");
    console.log(
      `baseline (a one-line function): ${kb(baseline!.bytes)} unpacked, module init ${init(base).toFixed(1)} ms, first request ${first(base).toFixed(1)} ms\n`,
    );
    console.log("function        zip        unpacked   init ms   ×baseline   first request ms   what its door bundles (KB)");
    for (const zip of zips.sort((a, b) => a.name.localeCompare(b.name))) {
      const folder = folders.find((f) => f.name === zip.name)!;
      const packages = packagesIn(metafile, zip.name as keyof typeof doors).map(([name, bytes]) => `${name} (${Math.round(bytes / 1024)})`);
      console.log(
        `${zip.name.padEnd(15)} ${kb(zip.bytes).padStart(9)}  ${kb(folder.bytes).padStart(9)}  ${init(zip.name).toFixed(1).padStart(7)}   ${(init(zip.name) / init(base)).toFixed(1).padStart(8)}   ${first(zip.name).toFixed(0).padStart(16)}   ${packages.join(", ")}`,
      );
    }
    console.log(`\nedge functions (${edge.functions.join(", ")}): one eszip of ${kb(edge.bytes)}`);
  } finally {
    await store.close();
    await rm(work, { recursive: true, force: true });
  }
}

async function coldStart(bundle: FunctionBundle, env: NodeJS.ProcessEnv, ip: string): Promise<{ init: number; first: number }> {
  if (!bundle.module) throw new Error(`no module found in the bundle of ${bundle.name}`);
  const request = firstRequests[bundle.name];
  if (!request) throw new Error(`no first request for ${bundle.name} in functions.bench.ts`);
  const body = request.body === undefined ? undefined : typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  const script = [
    "const t = performance.now();",
    `const m = await import(${JSON.stringify(pathToFileURL(bundle.module).href)});`,
    "const init = performance.now() - t;",
    `const request = new Request(${JSON.stringify(baseUrl + request.path)}, ${JSON.stringify({ method: request.method, headers: { host: new URL(baseUrl).host, ...request.headers }, body })});`,
    `const response = await m.default(request, { ip: ${JSON.stringify(ip)}, waitUntil() {} });`,
    "await response.text();",
    "process.stdout.write(JSON.stringify({ init, first: performance.now() - t, status: response.status }));",
  ].join("\n");
  const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", script], { cwd: bundle.path, env });
  // The function may have logged before the figures.
  const result = JSON.parse(stdout.slice(stdout.lastIndexOf('{"init"'))) as { init: number; first: number; status: number };
  if (result.status !== request.status)
    throw new Error(`${bundle.name} answered ${result.status} to its first request, not ${request.status}`);
  return result;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
