import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../lib/free-port.ts";
import { startRuntime, type Runtime } from "./runtime.ts";

/** The product's own variables: a runtime started beside the developer's shell must not pick theirs up. */
const shellVariables = [
  "URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "OAUTH_SIGNING_KEYS",
  "POSTMARK_SERVER_TOKEN",
  "LEADS_EMAIL_DAILY_LIMIT",
];

export interface IsolatedRuntimeOptions {
  /** A data folder to start from (and keep); by default a throw-away one that stop() removes. */
  dataDir?: string;
  /** Receives what netlify dev prints, as it prints it. */
  output?: (chunk: string) => void;
}

/**
 * The local runtime exactly as `npm start` runs it, for the tests and the benches: a free port, its own data folder,
 * none of the shell's product variables (so the local store, generated keys and the outbox) unless `env` sets them.
 * What it prints is kept, and shown only when it fails to start. It builds dist/ when needed.
 */
export async function startIsolatedRuntime(
  root: string,
  env: NodeJS.ProcessEnv = {},
  options: IsolatedRuntimeOptions = {},
): Promise<Runtime & { dataDir: string }> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "frontdoor-runtime-")));
  const removeDataDir = () => (options.dataDir ? Promise.resolve() : rm(dataDir, { recursive: true, force: true }));
  const environment: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), FRONTDOOR_DATA_DIR: dataDir };
  for (const name of shellVariables) delete environment[name];
  Object.assign(environment, env);
  const output: string[] = [];
  const runtime = await startRuntime({
    root,
    env: environment,
    log: (line) => output.push(line),
    output: (chunk) => {
      output.push(chunk);
      options.output?.(chunk);
    },
  }).catch(async (error: unknown) => {
    console.error(output.join("\n"));
    await removeDataDir();
    throw error;
  });
  return {
    ...runtime,
    dataDir,
    async stop() {
      await runtime.stop();
      await removeDataDir();
    },
  };
}
