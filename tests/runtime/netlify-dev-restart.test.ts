import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startIsolatedRuntime } from "../../scripts/runtime/isolated.ts";
import { statusOf } from "../support/http.ts";

/**
 * netlify dev ends itself on any error it does not catch, and npm start's front then has no one to hand requests to.
 * A runtime of its own (a dead netlify dev in the suite's would fail the next files while it restarts), on the suite's
 * base URL and keys so that dist/ is not rebuilt under the suite; the suite's .env.runtime is put back after it.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const envRuntime = join(root, ".env.runtime");
let suiteEnvRuntime: string;
let sameSite: NodeJS.ProcessEnv;

beforeAll(async () => {
  suiteEnvRuntime = await readFile(envRuntime, "utf8");
  const keys = await readFile(join(inject("dataDir"), "signing-keys.json"), "utf8");
  sameSite = { URL: inject("baseUrl"), OAUTH_SIGNING_KEYS: JSON.stringify(JSON.parse(keys)) };
});

afterAll(async () => {
  await writeFile(envRuntime, suiteEnvRuntime, { mode: 0o600 });
});

/** netlify dev's main process for the runtime at `port`: the one whose preload names it (scripts/runtime/netlify.ts). */
async function netlifyDevAt(port: string): Promise<number | undefined> {
  for (const pid of (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry))) {
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.includes(`behind-front.ts?port=${port}&`)) return Number(pid);
  }
  return undefined;
}

const answers = (url: string) => statusOf(url).catch(() => 0);

describe("npm start, when netlify dev dies", () => {
  it("starts it again behind a new front, which then serves as before", { timeout: 240_000 }, async () => {
    const runtime = await startIsolatedRuntime(root, sameSite);
    try {
      const { port } = new URL(runtime.url);
      const first = await netlifyDevAt(port);
      expect(first).toBeDefined();
      process.kill(first!, "SIGKILL");
      await expect.poll(() => answers(`${runtime.url}/api/v1`), { timeout: 120_000, interval: 500 }).toBe(200);
      expect(await answers(`${runtime.url}/mcp/server-card`)).toBe(200);
      expect(await netlifyDevAt(port)).not.toBe(first);
    } finally {
      await runtime.stop();
    }
  });
});
