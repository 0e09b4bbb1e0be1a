import { readFile } from "node:fs/promises";
import { defineConfig, type Plugin } from "vitest/config";
import { patience, testLimit } from "./tests/support/patience.ts";

/**
 * `import text from "./x.css" with { type: "text" }` gives the file's text, as esbuild (which bundles the Netlify
 * functions) does. Vite ignores import attributes and would treat the file as CSS, so such imports are rewritten to
 * a virtual module holding the text.
 */
const textSuffix = "?frontdoor-text";
const textImports: Plugin = {
  name: "text-imports",
  enforce: "pre",
  transform(code, id) {
    if (!/\.ts$/.test(id) || !code.includes('type: "text"')) return null;
    return code.replace(/from "([^"]+)" with \{ type: "text" \}/g, (_, path: string) => `from "${path}${textSuffix}"`);
  },
  async resolveId(source, importer) {
    if (!source.endsWith(textSuffix)) return null;
    const resolved = await this.resolve(source.slice(0, -textSuffix.length), importer, { skipSelf: true });
    // The virtual id must not end in .css, or Vite's CSS plugin claims it.
    return resolved ? `\0text:${resolved.id}.js` : null;
  },
  async load(id) {
    if (!id.startsWith("\0text:")) return null;
    return `export default ${JSON.stringify(await readFile(id.slice("\0text:".length, -".js".length), "utf8"))};`;
  },
};

/**
 * Every project's time limits: a test or hook passes its limit only when it hangs, and every expect.poll waits the shared
 * patience (tests/support/patience.ts), so that a loaded machine makes the suite slower, never red.
 */
const steady = { testTimeout: testLimit, hookTimeout: testLimit, expect: { poll: { timeout: patience } } };

/** The in-process project's files; `npm run mutate` takes all but the resilience suite (vitest.mutate.config.ts). */
export const inProcessTests = [
  "tests/unit/**/*.test.ts",
  "tests/store/**/*.test.ts",
  "tests/doors/**/*.test.ts",
  "tests/resilience/**/*.test.ts",
];

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [textImports],
        test: {
          name: "in-process",
          // The units and the store, every door built as functions/ build it (with an injected client address and clock),
          // and the resilience suite (each of its files with its own deployment, fault fronts and Redis database:
          // support/databases.ts). One project, so one Vite server and one set of workers serve them all.
          include: inProcessTests,
          // In-process files put back what they change (mocks, timers, the test clock): a worker's module cache serves them all.
          isolate: false,
          ...steady,
        },
      },
      {
        plugins: [textImports],
        test: {
          name: "runtime",
          include: ["tests/runtime/**/*.test.ts", "tests/browser/**/*.test.ts"],
          globalSetup: ["tests/support/global-runtime.ts"],
          setupFiles: ["tests/support/fresh-address.ts"],
          // The files call from 127.0.0.1 (a test of two people calls from other loopback addresses), so files that count quota run one at a time, in one
          // worker whose module cache serves them all.
          fileParallelism: false,
          isolate: false,
          ...steady,
        },
      },
      {
        plugins: [textImports],
        test: {
          name: "own-runtime",
          // The files that stop or kill netlify dev, on an npm start of their own in a copy of the checkout
          // (tests/support/runtime-of-its-own.ts), so that the runtime project's files go on meanwhile.
          include: ["tests/own-runtime/**/*.test.ts"],
          globalSetup: ["tests/support/global-own-runtime.ts"],
          fileParallelism: false,
          ...steady,
        },
      },
      {
        plugins: [textImports],
        test: {
          name: "build",
          // The build output and the deploy bundles, over the dist/ the runtime project built (tests/support/global-build.ts).
          include: ["tests/build/**/*.test.ts"],
          globalSetup: ["tests/support/global-build.ts"],
          ...steady,
        },
      },
    ],
  },
});
