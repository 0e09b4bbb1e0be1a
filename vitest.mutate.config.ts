import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin, type TestProjectInlineConfiguration } from "vitest/config";
import suite from "./vitest.config.ts";

/**
 * The projects `npm run mutate` (stryker.config.mjs) runs against each mutant: the in-process ones only, unit (with
 * the store tests) and doors, as vitest.config.ts defines them (with its text-imports plugin). Never the runtime or
 * build projects: they start `npm start`, bind ports and read dist/.
 */
const inProcess = new Set(["unit", "doors"]);

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
  .filter((project): project is TestProjectInlineConfiguration => typeof project === "object" && inProcess.has(project.test?.name ?? ""))
  .map((project) => ({ ...project, plugins: [...(project.plugins ?? []), localStoreOnly] }));
if (projects.length !== inProcess.size) throw new Error("vitest.config.ts no longer defines the unit and doors projects");

export default defineConfig({ test: { projects } });
