import { defineConfig } from "vitest/config";

// Two projects: fast in-process tests, and tests against the local runtime (one `netlify dev` for all of them,
// started by tests/support/global-runtime.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "tests/store/**/*.test.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "runtime",
          include: ["tests/build/**/*.test.ts", "tests/runtime/**/*.test.ts", "tests/browser/**/*.test.ts"],
          globalSetup: ["tests/support/global-runtime.ts"],
          // The local runtime gives every client the address 127.0.0.1, so files that count quota run one at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
