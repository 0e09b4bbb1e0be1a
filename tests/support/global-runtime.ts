import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { startIsolatedRuntime, type IsolatedRuntimeOptions } from "../../scripts/runtime/isolated.ts";
import type { Runtime } from "../../scripts/runtime/runtime.ts";
import { registryTestPublicKey } from "./mcp-registry.ts";
import { patience, patientDeadlines } from "./patience.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "./postmark-standin.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    store: { url: string; token: string };
    /** The Postmark stand-in the runtime sends lead e-mails to. */
    postmark: string;
    /** A file with everything netlify dev has printed so far (tests/support/netlify-dev-log.ts reads it). */
    netlifyDevLog: string;
    /** The checkout the runtime runs from: the suite's, or its copy (./runtime-of-its-own.ts). */
    checkout: string;
  }
}

type Start = (env: NodeJS.ProcessEnv, options: IsolatedRuntimeOptions) => Promise<Runtime & { dataDir: string; root: string }>;

/**
 * A project's global setup: starts a local runtime exactly as `npm start` does, on a free port with its own data folder,
 * and provides what its files inject. `start` chooses where: the checkout, or a copy of it (./runtime-of-its-own.ts).
 */
export function runtimeForProject(start: Start, whenUp?: (url: string) => Promise<void>) {
  let runtime: Runtime | undefined;
  let postmark: PostmarkStandIn | undefined;
  let log: { dir: string; stream: WriteStream } | undefined;

  async function setup(project: TestProject) {
    // Lead e-mails take the production path: the real postmark client, talking to a local stand-in.
    postmark = await startPostmarkStandIn("runtime-postmark-token", 12_000);
    const logDir = await mkdtemp(join(tmpdir(), "frontdoor-netlify-dev-log-"));
    const logFile = join(logDir, "netlify-dev.log");
    const stream = createWriteStream(logFile);
    log = { dir: logDir, stream };
    const started = await start(
      {
        // The loopback CIMD mode lets the OAuth tests serve client metadata documents from this machine.
        FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1",
        POSTMARK_SERVER_TOKEN: postmark.token,
        POSTMARK_API_URL: postmark.url,
        LEADS_TO: "leads@studio.example",
        LEADS_FROM: "website@studio.example",
        // The build serves the MCP Registry's proof of the domain (tests/runtime/mcp-registry.test.ts).
        MCP_REGISTRY_AUTH_PUBLIC_KEY: registryTestPublicKey,
        ...patientDeadlines,
        // netlify dev runs every function call in a new worker that loads the function's modules again; V8's compile cache
        // spares each call part of that (about a sixth of its CPU time here). node_modules keeps it between runs.
        NODE_COMPILE_CACHE: join(root, "node_modules/.cache/frontdoor-runtime-compile-cache"),
      },
      { output: (chunk) => stream.write(chunk), startLimitMs: patience },
    );
    runtime = started;
    project.provide("baseUrl", started.url);
    project.provide("dataDir", started.dataDir);
    project.provide("store", { url: started.store!.url, token: started.store!.token });
    project.provide("postmark", postmark.url);
    project.provide("netlifyDevLog", logFile);
    project.provide("checkout", started.root);
    await whenUp?.(started.url);
  }

  async function teardown() {
    await runtime?.stop();
    await postmark?.close();
    if (log) {
      await new Promise((resolve) => log!.stream.end(resolve));
      await rm(log.dir, { recursive: true, force: true });
    }
  }
  return { setup, teardown };
}

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The runtime project's: npm start in the checkout. */
export const { setup, teardown } = runtimeForProject(
  async (env, options) => ({ ...(await startIsolatedRuntime(root, env, options)), root }),
  // scripts/test.ts starts the build tests and the type check once the runtime's build (dist/ and .astro/) is done.
  async (url) => {
    if (process.env.FRONTDOOR_TEST_RUNTIME_UP) await writeFile(process.env.FRONTDOOR_TEST_RUNTIME_UP, url);
  },
);
