import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { functionVariables } from "./config.ts";

/**
 * netlify dev runs every function call in a new worker thread, whose heap starts small: loading a door then runs scavenge
 * after scavenge. A young generation that starts at 16 MB spares most of them, 15-20% of a call's CPU time (35 ms of the
 * MCP door's 230 ms here); docs/performance.md. Every worker takes the process's V8 flags.
 */
const youngGeneration = "--min-semi-space-size=16";

/**
 * Runs `netlify dev --offline` (framework #static, publish dist, per netlify.toml). Offline it needs Deno from
 * the npm `deno` package on PATH, and the edge bootstrap shipped in @netlify/edge-functions-dev instead of the
 * remote one; see docs/decisions.md. It is told it serves at `port`, so its URLs say so, but behind-front.ts binds it
 * on 127.0.0.1:`internalPort`, where npm start's front (front.ts) hands it every request.
 */
export function spawnNetlifyDev(
  root: string,
  port: number,
  internalPort: number,
  baseUrl: string,
  environment: NodeJS.ProcessEnv,
): ChildProcess {
  // The product's variables reach functions and edge functions alike through .env.runtime (netlify.toml
  // [dev] envFiles); shell copies would only shadow them for functions. URL is the exception: netlify dev
  // sets its own (http://localhost:<the port it is told>, the front's, not the internal one), which a value in the
  // process environment overrides for functions.
  const shell = Object.fromEntries(Object.entries(environment).filter(([name]) => !(functionVariables as string[]).includes(name)));
  const bin = join(root, "node_modules", ".bin");
  const preload = pathToFileURL(join(root, "scripts/runtime/behind-front.ts"));
  preload.search = new URLSearchParams({ port: String(port), internal: String(internalPort) }).toString();
  const cli = [join(root, "node_modules/netlify-cli/bin/run.js"), "dev", "--offline", "--port", String(port)];
  return spawn(process.execPath, [youngGeneration, "--import", preload.href, ...cli], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...shell,
      URL: baseUrl,
      NODE_OPTIONS: `${environment.NODE_OPTIONS ?? ""} --no-deprecation`.trim(),
      PATH: `${bin}${delimiter}${environment.PATH ?? ""}`,
      NETLIFY_EDGE_BOOTSTRAP: pathToFileURL(join(root, "node_modules/@netlify/edge-functions-dev/dist/deno/bootstrap.mjs")).href,
      // netlify-cli sends no telemetry when it believes it runs in CI; it has no other switch that leaves the
      // user's global configuration alone.
      CI: "true",
      ASTRO_TELEMETRY_DISABLED: "1",
    },
  });
}

/** Resolves once something accepts connections on 127.0.0.1:`port`, or rejects when the child exits or the time is up. */
export const waitUntilListening = (port: number, child: ChildProcess, timeoutMs: number) =>
  waitUntil(`listening on port ${port}`, child, timeoutMs, () => accepts(port));

/** Resolves when the site answers, or rejects when the child exits or the time is up. */
export const waitUntilServing = (url: string, child: ChildProcess, timeoutMs: number) =>
  waitUntil(`serving ${url}`, child, timeoutMs, () =>
    fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    ),
  );

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Polls `ready` every 250 ms until it holds; rejects when netlify dev exits first or the time is up. */
async function waitUntil(what: string, child: ChildProcess, timeoutMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`netlify dev exited (code ${exited}) before ${what}`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`netlify dev was not ${what} within ${timeoutMs / 1000} s`);
}

/** Stops netlify dev and everything it started (the static server, the functions server, Deno). */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  // Killed, or ended by an error of its own: what it started may still run.
  if (child.exitCode !== null || child.signalCode !== null) return signal("SIGTERM");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}
