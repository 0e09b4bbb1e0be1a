import { readDotEnv } from "../../scripts/runtime/config.ts";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, inject } from "vitest";

/** The checkout the suite runs in. */
export const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * For a file that starts `npm start` runtimes of its own beside the suite's: they share the checkout, so they take the
 * suite's base URL and signing keys (dist/ is not rebuilt under the suite), and the .env.runtime that `npm run leads`
 * finds the suite's running store through is put back after them. Gives the variables such a runtime starts with.
 */
export function besideTheSuite(): () => NodeJS.ProcessEnv {
  const envRuntime = join(root, ".env.runtime");
  let suiteEnvRuntime: string;
  let sameSite: NodeJS.ProcessEnv;
  beforeAll(async () => {
    suiteEnvRuntime = await readFile(envRuntime, "utf8");
    const keys = await readFile(join(inject("dataDir"), "signing-keys.json"), "utf8");
    // Every variable the build reads as the suite's runtime had it, so the same dist/ serves both (no rebuild under the suite).
    const suite = await readDotEnv(envRuntime);
    const registry = Object.fromEntries(
      (["MCP_REGISTRY_NAME", "MCP_REGISTRY_AUTH_PUBLIC_KEY"] as const).flatMap((name) => (suite[name] ? [[name, suite[name]]] : [])),
    );
    sameSite = { URL: inject("baseUrl"), OAUTH_SIGNING_KEYS: JSON.stringify(JSON.parse(keys)), ...registry };
  });
  afterAll(async () => {
    await writeFile(envRuntime, suiteEnvRuntime, { mode: 0o600 });
  });
  return () => sameSite;
}
