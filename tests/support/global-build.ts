import { stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { readDotEnv } from "../../scripts/runtime/config.ts";

/**
 * The build tests read dist/ as the local runtime built it, and the base URL it was built for, which the runtime wrote
 * to .env.runtime. npm test (scripts/test.ts) runs them once the runtime project's runtime is up; `vitest run` runs the
 * runtime project's global setup first. Alone, they test what the last `npm start` built.
 */
export async function setup(project: TestProject) {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const { URL: baseUrl } = await readDotEnv(join(root, ".env.runtime"));
  const built = await stat(join(root, "dist", "index.html")).then(
    () => true,
    () => false,
  );
  if (!baseUrl || !built) throw new Error("The build tests need the site npm start builds: run npm start (or npm test) first.");
  project.provide("baseUrl", baseUrl);
}
