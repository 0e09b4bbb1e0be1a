import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * `import text from "./x.css" with { type: "text" }` gives the file's text, as Netlify's function bundler (esbuild)
 * does. Node has no text imports, so scripts that load function code (the benchmarks) import this module first.
 * vitest.config.ts does the same for the tests.
 */
registerHooks({
  load(url, context, nextLoad) {
    if (context.importAttributes?.type !== "text") return nextLoad(url, context);
    return { format: "module", source: `export default ${JSON.stringify(readFileSync(fileURLToPath(url), "utf8"))};`, shortCircuit: true };
  },
});
