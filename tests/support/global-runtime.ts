import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { freePort } from "../../scripts/lib/free-port.ts";
import { startRuntime, type Runtime } from "../../scripts/runtime/runtime.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "./postmark-standin.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    store: { url: string; token: string };
    /** The Postmark stand-in the runtime sends lead e-mails to. */
    postmark: string;
  }
}

let runtime: Runtime | undefined;
let postmark: PostmarkStandIn | undefined;
let dataDir: string | undefined;

/** Starts the local runtime exactly as `npm start` does, on a free port with its own data folder. */
export async function setup(project: TestProject) {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  dataDir = await mkdtemp(join(tmpdir(), "frontdoor-test-"));
  const port = await freePort();
  const output: string[] = [];
  // The loopback CIMD mode lets the OAuth tests serve client metadata documents from this machine.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), FRONTDOOR_DATA_DIR: dataDir, FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" };
  for (const name of ["URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "OAUTH_SIGNING_KEYS"]) delete env[name];
  // Lead e-mails take the production path: the real postmark client, talking to a local stand-in.
  postmark = await startPostmarkStandIn("runtime-postmark-token", 12_000);
  Object.assign(env, {
    POSTMARK_SERVER_TOKEN: postmark.token,
    POSTMARK_API_URL: postmark.url,
    LEADS_TO: "leads@studio.example",
    LEADS_FROM: "website@studio.example",
  });
  try {
    runtime = await startRuntime({ root, env, log: (line) => output.push(line), output: (chunk) => output.push(chunk) });
  } catch (error) {
    console.error(output.join("\n"));
    throw error;
  }
  project.provide("baseUrl", runtime.url);
  project.provide("dataDir", dataDir);
  project.provide("store", { url: runtime.store!.url, token: runtime.store!.token });
  project.provide("postmark", postmark.url);
}

export async function teardown() {
  await runtime?.stop();
  await postmark?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
