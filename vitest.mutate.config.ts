import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin, type TestProjectInlineConfiguration } from "vitest/config";
import suite, { inProcessTests } from "./vitest.config.ts";

/**
 * What `npm run mutate` (stryker.config.mjs) runs against each mutant: the in-process project as vitest.config.ts
 * defines it (with its text-imports plugin), but for the resilience suite: its fault fronts, real Redis and fuzzers
 * would multiply the time of every mutant's run.
 * Never the runtime or build projects: they start `npm start`, bind ports and read dist/.
 */
const mutated = inProcessTests.filter((glob) => !glob.startsWith("tests/resilience/"));

/** The store tests on the local store only (tests/support/local-store-only.ts says why). */
const shim = fileURLToPath(new URL("./tests/support/local-store-only.ts", import.meta.url));
const localStoreOnly: Plugin = {
  name: "local-store-only",
  enforce: "pre",
  resolveId(source, importer) {
    if (!source.endsWith("/upstash-gateway.ts") || importer === shim) return null;
    return shim;
  },
};

const projects = (suite.test?.projects ?? [])
  .filter((project): project is TestProjectInlineConfiguration => typeof project === "object" && project.test?.name === "in-process")
  .map((project) => ({ ...project, plugins: [...(project.plugins ?? []), localStoreOnly], test: { ...project.test, include: mutated } }));
if (projects.length !== 1) throw new Error("vitest.config.ts no longer defines the in-process project");

export default defineConfig({ test: { projects } });
