import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { startIsolatedRuntime } from "../../scripts/runtime/isolated.ts";
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
  }
}

let runtime: Runtime | undefined;
let postmark: PostmarkStandIn | undefined;
let log: { dir: string; stream: WriteStream } | undefined;

/** Starts the local runtime exactly as `npm start` does, on a free port with its own data folder. */
export async function setup(project: TestProject) {
  // Lead e-mails take the production path: the real postmark client, talking to a local stand-in.
  postmark = await startPostmarkStandIn("runtime-postmark-token", 12_000);
  const logDir = await mkdtemp(join(tmpdir(), "frontdoor-netlify-dev-log-"));
  const logFile = join(logDir, "netlify-dev.log");
  const stream = createWriteStream(logFile);
  log = { dir: logDir, stream };
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const isolated = await startIsolatedRuntime(
    root,
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
      NODE_COMPILE_CACHE: fileURLToPath(new URL("../../node_modules/.cache/frontdoor-runtime-compile-cache", import.meta.url)),
    },
    { output: (chunk) => stream.write(chunk), startLimitMs: patience },
  );
  runtime = isolated;
  project.provide("baseUrl", isolated.url);
  project.provide("dataDir", isolated.dataDir);
  project.provide("store", { url: isolated.store!.url, token: isolated.store!.token });
  project.provide("postmark", postmark.url);
  project.provide("netlifyDevLog", logFile);
  // scripts/test.ts starts the build tests and the type check once the runtime's build (dist/ and .astro/) is done.
  if (process.env.FRONTDOOR_TEST_RUNTIME_UP) await writeFile(process.env.FRONTDOOR_TEST_RUNTIME_UP, isolated.url);
}

export async function teardown() {
  await runtime?.stop();
  await postmark?.close();
  if (log) {
    await new Promise((resolve) => log!.stream.end(resolve));
    await rm(log.dir, { recursive: true, force: true });
  }
}
