import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleEdgeFunctions, bundleFunctions } from "../../scripts/lib/netlify-bundles.ts";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { generateKeySet, importSigningKeys } from "../../src/tokens/keys.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
let work: string;
let bundles: Awaited<ReturnType<typeof bundleFunctions>>;
let edge: ReturnType<typeof bundleEdgeFunctions>;

// Each bundler runs once, for every test: the edge bundler's Deno beside zip-it-and-ship-it's tracing, which holds this
// process (a core each).
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "frontdoor-bundles-test-"));
  edge = bundleEdgeFunctions(root, join(work, "edge"));
  edge.catch(() => {}); // its test reports a failure
  bundles = await bundleFunctions(root, join(root, "functions"), join(work, "functions"), "none");
});
afterAll(async () => {
  await edge?.catch(() => {});
  await rm(work, { recursive: true, force: true });
});

// netlify dev runs functions and edge functions from source; a deploy runs what Netlify's bundlers make of them.
describe("the bundles a Netlify deploy would upload", () => {
  it("bundles every function, and each bundled module loads in a fresh Node process", async () => {
    const sources = (await readdir(join(root, "functions"))).filter((file) => file.endsWith(".ts")).map((file) => file.slice(0, -3));
    expect(bundles.map((b) => b.name).sort()).toEqual(sources.sort());
    for (const bundle of bundles) {
      const check = `const m = await import(${JSON.stringify(pathToFileURL(bundle.module!).href)}); process.stdout.write(typeof m.default + " " + typeof m.config);`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", check], { cwd: bundle.path });
      expect(stdout, bundle.name).toBe("function object");
      // Its door, which it loads on its first request (src/http/door-url.ts), ships beside it: netlify.toml's included_files.
      await expect(stat(join(bundle.path, "build", "doors", `${bundle.name}.mjs`)), bundle.name).resolves.toBeDefined();
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
    const { functions, bytes } = await edge;
    expect(functions.sort()).toEqual(["api", "markdown", "media-types"]);
    expect(bytes).toBeGreaterThan(0);
  });
});

// Each door is one bundled file whose modules esbuild wraps, where they load on demand, in initialisers named after their
// paths ("node_modules/jose/dist/webapi/index.js"); V8's coverage of a child process serving one request counts the
// calls of each. A module the door loads up front has no initialiser; one loaded on demand has one, called or not.
describe("what a request loads from the production bundle", () => {
  const baseUrl = "https://studio.example";
  const onDemand = { "the brief pipeline": "src/briefs/pipeline.ts", Postmark: "node_modules/postmark/", jose: "node_modules/jose/" };
  let env: NodeJS.ProcessEnv;
  let store: Awaited<ReturnType<typeof startLocalStore>>;
  let token: string;

  beforeAll(async () => {
    store = await startLocalStore({ token: "bundles-test", snapshotFile: join(work, "store.json") });
    const keySet = JSON.stringify(await generateKeySet());
    const grant = { clientId: "fdc_bundles_test", grantId: clientGrantId("fdc_bundles_test"), scope: "svc:read", audience: baseUrl };
    token = (await issueAccessToken(await importSigningKeys(keySet), baseUrl, grant, Date.now())).access_token;
    // The functions' Cal.com agrees with the build's, or booking refuses (src/booking/config.ts): npm start's build offers
    // booking with its stand-in, and these reads never call Cal.com.
    const { contact } = JSON.parse(await readFile(join(root, "dist/api/v1/prebuilt.json"), "utf8")) as { contact: { booking: { agents?: unknown } } };
    const cal = contact.booking.agents ? { CAL_EVENT_TYPE_ID: "1", CAL_API_KEY: "bundles-test", CAL_API_URL: "http://127.0.0.1:9" } : {};
    env = {
      PATH: process.env.PATH,
      URL: baseUrl,
      UPSTASH_REDIS_REST_URL: store.url,
      UPSTASH_REDIS_REST_TOKEN: store.token,
      OAUTH_SIGNING_KEYS: keySet,
      ...cal,
    };
  });
  afterAll(() => store?.close());

  async function serve(name: string, path: string, headers: Record<string, string>, body: object) {
    const bundle = bundles.find((b) => b.name === name)!;
    const coverage = await mkdtemp(join(work, "coverage-"));
    const call = [
      `const m = await import(${JSON.stringify(pathToFileURL(bundle.module!).href)});`,
      `const init = ${JSON.stringify({ method: "POST", headers: { host: new URL(baseUrl).host, "content-type": "application/json", ...headers }, body: JSON.stringify(body) })};`,
      `const res = await m.default(new Request(${JSON.stringify(baseUrl + path)}, init), { ip: "203.0.113.7", waitUntil() {} });`,
      `process.stdout.write(res.status + " " + (await res.text()));`,
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", call], {
      cwd: bundle.path,
      env: { ...env, NODE_V8_COVERAGE: coverage },
    });
    const calls = new Map<string, number>();
    for (const file of await readdir(coverage)) {
      const { result } = JSON.parse(await readFile(join(coverage, file), "utf8")) as {
        result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
      };
      for (const script of result.filter((s) => s.url.endsWith(`/build/doors/${name}.mjs`)))
        for (const f of script.functions) if (/^(src|node_modules)\//.test(f.functionName)) calls.set(f.functionName, f.ranges[0]!.count);
    }
    expect(calls.size, "no coverage of the door").toBeGreaterThan(0);
    /** How many of the initialisers under `prefix` ran, of how many the door holds. */
    const loaded = (prefix: string) => {
      const initialisers = [...calls].filter(([path]) => path.startsWith(prefix));
      return { ran: initialisers.filter(([, count]) => count > 0).length, of: initialisers.length };
    };
    return { stdout, loaded };
  }

  const mcpRead = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const mcpHeaders = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const a2aRead = { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ data: { skill: "offers" } }] } } };

  it.each([
    ["MCP", "mcp", "/mcp", mcpHeaders, mcpRead],
    ["A2A", "a2a", "/a2a/v1", { "a2a-version": "1.0" }, a2aRead],
  ])("an %s read without a token loads neither the brief pipeline, Postmark nor jose", async (_, name, path, headers, body) => {
    const { stdout, loaded } = await serve(name, path, headers, body);
    expect(stdout.slice(0, 3), stdout).toBe("200");
    for (const [what, prefix] of Object.entries(onDemand)) {
      expect(loaded(prefix).of, `${what} is not loaded on demand`).toBeGreaterThan(0);
      expect(loaded(prefix).ran, `${what} was loaded`).toBe(0);
    }
  });

  it("the MCP bundle serves the skills the build wrote: skills/list gives each SKILL.md the index's digest", async () => {
    const { stdout } = await serve("mcp", "/mcp", mcpHeaders, { jsonrpc: "2.0", id: 1, method: "skills/list" });
    expect(stdout.slice(0, 3), stdout).toBe("200");
    const { skills } = (JSON.parse(stdout.slice(4)) as { result: { skills: { uri: string; resources: { uri: string; digest: string }[] }[] } })
      .result;
    const index = JSON.parse(await readFile(join(root, "dist/.well-known/agent-skills/index.json"), "utf8")) as {
      skills: { name: string; digest: string }[];
    };
    expect(skills.map((s) => [s.uri, s.resources.find((r) => r.uri === s.uri)!.digest]).sort()).toEqual(
      index.skills.map((e) => [`skill://${e.name}/SKILL.md`, e.digest]).sort(),
    );
  });

  it("an MCP read with a token loads jose to verify it, and still neither the pipeline nor Postmark", async () => {
    const { stdout, loaded } = await serve("mcp", "/mcp", { ...mcpHeaders, authorization: `Bearer ${token}` }, mcpRead);
    expect(stdout.slice(0, 3), stdout).toBe("200");
    expect(loaded(onDemand.jose).ran).toBeGreaterThan(0);
    expect(loaded(onDemand["the brief pipeline"]).ran).toBe(0);
    expect(loaded(onDemand.Postmark).ran).toBe(0);
  });
});
