import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chromiumMissing, chromiumPath } from "../../scripts/lib/chromium.ts";
import { patience } from "../support/patience.ts";

const testScript = fileURLToPath(new URL("../../scripts/test.ts", import.meta.url));

/** `npm test`'s own script, stopped (with anything it started) if it runs past `ms`: a hang, not a slow start. */
function npmTest(env: NodeJS.ProcessEnv, ms: number): Promise<{ code: number | null; output: string; stopped: boolean }> {
  const child = spawn(process.execPath, [testScript], {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let stopped = false;
  const timer = setTimeout(() => {
    stopped = true;
    process.kill(-child.pid!, "SIGKILL");
  }, ms);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, stopped });
    }),
  );
}

describe("the Chromium npm test needs", () => {
  it("is Debian's unless CHROMIUM_PATH names another", () => {
    expect(chromiumPath({})).toBe("/usr/bin/chromium");
    expect(chromiumPath({ CHROMIUM_PATH: "" })).toBe("/usr/bin/chromium");
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chromium/chrome" })).toBe("/opt/chromium/chrome");
  });

  it("is found on this machine, which runs the browser tests", () => {
    expect(chromiumMissing()).toBeUndefined();
  });

  it("when missing, is named in one line with the command that installs it", () => {
    const line = chromiumMissing({ CHROMIUM_PATH: "/nonexistent/chromium" })!;
    expect(line).toBe(
      "npm test needs Chromium for the browser tests, and /nonexistent/chromium cannot run (ENOENT): set CHROMIUM_PATH to a Chromium 156 or later, then run npm test again.",
    );
    expect(line).not.toContain("\n");
  });

  it("when older than the tests read, is named in one line with its version", async () => {
    const dir = await mkdtemp(join(tmpdir(), "frontdoor-old-chromium-"));
    try {
      const old = join(dir, "chromium");
      await writeFile(old, "#!/bin/sh\necho 'Chromium 150.0.7000.1 built on Debian'\n", { mode: 0o755 });
      expect(chromiumMissing({ CHROMIUM_PATH: old })).toBe(
        `npm test needs Chromium 156 or later for the browser tests, and ${old} is 150: set CHROMIUM_PATH to a Chromium 156 or later, then run npm test again.`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("stops npm test at once, with that one line, before any test runs", async () => {
    const run = await npmTest({ CHROMIUM_PATH: "/nonexistent/chromium" }, patience);
    expect(run.stopped).toBe(false);
    expect(run.code).toBe(1);
    expect(run.output.trim()).toBe(chromiumMissing({ CHROMIUM_PATH: "/nonexistent/chromium" }));
  });
});
