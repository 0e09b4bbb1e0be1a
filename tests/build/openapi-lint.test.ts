import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * The built OpenAPI document as two common linters see it: Spectral's spectral:oas and Redocly's recommended rules
 * (their rule sets: .spectral.yaml and redocly.yaml, which say why a rule is off). No warning passes. Offline: no
 * telemetry, no update check.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const document = "dist/api/v1/openapi.json";
const env = { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", SCARF_ANALYTICS: "false" };

/** Runs a CLI from node_modules on this Node, and gives its exit code and output. */
async function lint(cli: string, args: string[]) {
  const run = promisify(execFile)(process.execPath, [`node_modules/${cli}`, ...args], { cwd: root, env });
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}

describe("the built OpenAPI document", () => {
  it("passes Spectral's spectral:oas rules with no warning", async () => {
    const { code, output } = await lint("@stoplight/spectral-cli/dist/index.js", ["lint", "--fail-severity=hint", document]);
    expect(output).toContain("No results with a severity of 'hint' or higher found!");
    expect(code).toBe(0);
  });

  it("passes Redocly's recommended rules with no warning", async () => {
    const { code, output } = await lint("@redocly/cli/bin/cli.js", ["lint", "--max-problems=50", "--format=stylish", document]);
    expect(output).toContain("Your API description is valid");
    expect(output).not.toMatch(/warning|error/i);
    expect(code).toBe(0);
  });
});
