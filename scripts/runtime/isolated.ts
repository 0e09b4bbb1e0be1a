import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settingNames } from "../../src/config/settings.ts";
import { freePort } from "../lib/free-port.ts";
import { startRuntime, type Runtime } from "./runtime.ts";

export interface IsolatedRuntimeOptions {
  /** A data folder to start from (and keep); by default a throw-away one that stop() removes. */
  dataDir?: string;
  /** Receives what netlify dev prints, as it prints it. */
  output?: (chunk: string) => void;
  /** How long netlify dev may take to listen, and then to serve (startRuntime's default unless given). */
  startLimitMs?: number;
}

/**
 * The local runtime exactly as `npm start` runs it, for the tests and the benches: a free port, its own data folder,
 * none of the shell's settings and not the checkout's .env (every variable of src/config/settings.ts: so the local
 * store, generated keys and the outbox) unless `env` sets them.
 * What it prints is kept, and shown only when it fails to start. It builds dist/ when needed.
 */
export async function startIsolatedRuntime(
  root: string,
  env: NodeJS.ProcessEnv = {},
  options: IsolatedRuntimeOptions = {},
): Promise<Runtime & { dataDir: string }> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "frontdoor-runtime-")));
  const removeDataDir = () => (options.dataDir ? Promise.resolve() : rm(dataDir, { recursive: true, force: true }));
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of settingNames) delete environment[name];
  Object.assign(environment, { PORT: String(await freePort()), FRONTDOOR_DATA_DIR: dataDir }, env);
  const output: string[] = [];
  const runtime = await startRuntime({
    root,
    env: environment,
    // A developer's .env (a real Postmark token, another URL) must not reach the tests, as their shell's does not.
    readsDotEnv: false,
    startLimitMs: options.startLimitMs,
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
