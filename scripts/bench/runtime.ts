import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../lib/free-port.ts";
import { startRuntime, type Runtime } from "../runtime/runtime.ts";

/**
 * The local runtime exactly as `npm start` runs it, on a free port with a throw-away data folder and none of the
 * shell's product variables (so it uses the local store, its own keys and the outbox). It builds dist/ when needed.
 */
export async function startBenchRuntime(root: string, extra: NodeJS.ProcessEnv = {}): Promise<Runtime> {
  const dataDir = await mkdtemp(join(tmpdir(), "frontdoor-bench-runtime-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), FRONTDOOR_DATA_DIR: dataDir };
  for (const name of ["URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "OAUTH_SIGNING_KEYS", "POSTMARK_SERVER_TOKEN"]) {
    delete env[name];
  }
  Object.assign(env, extra);
  const output: string[] = [];
  const runtime = await startRuntime({ root, env, log: (line) => output.push(line), output: (chunk) => output.push(chunk) }).catch(
    (error: unknown) => {
      console.error(output.join("\n"));
      throw error;
    },
  );
  return {
    ...runtime,
    async stop() {
      await runtime.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
