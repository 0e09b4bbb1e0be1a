// @ts-check
/**
 * Mutation testing of the write paths (`npm run mutate`; not part of `npm test`). docs/performance.md has the scores
 * and how to run one folder at a time. Reports (HTML, JSON and the incremental baseline) go to reports/mutation/.
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  // The in-process project but its resilience suite (vitest.mutate.config.ts): never the runtime project.
  vitest: { configFile: "vitest.mutate.config.ts", pool: "forks" },
  coverageAnalysis: "perTest",
  // A 2-core machine, shared.
  concurrency: 2,
  mutate: [
    "src/operations/**/*.ts",
    "src/briefs/**/*.ts",
    "src/booking/**/*.ts",
    "src/contact/**/*.ts",
    // The REST write doors.
    "src/api/briefs.ts",
    "src/api/bookings.ts",
    // The write adapters of the MCP door.
    "src/mcp/operation-tool.ts",
    "src/mcp/brief-tool.ts",
    "src/mcp/booking-tools.ts",
    "src/mcp/booking-confirmation.ts",
    "src/mcp/confirmation.ts",
    "src/mcp/refusal-result.ts",
    "src/mcp/form-decisions.ts",
    // The write adapters of the A2A door (the executor whole: its read part is small).
    "src/a2a/booking.ts",
    "src/a2a/operation-task.ts",
    "src/a2a/executor.ts",
  ],
  // A static mutant (a module-level value, computed once at import) can only be tested by the whole suite, minutes a
  // mutant; they are left out of the score, and docs/performance.md counts them.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The doors' tests start a deployment per file; a mutant that hangs a call is a timeout, not a wait.
  timeoutMS: 30_000,
  thresholds: { high: 90, low: 80, break: null },
};
