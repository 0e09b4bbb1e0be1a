import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/** `npm run build` checks the variables the build reads before Astro starts: one line naming the variable. */
const script = fileURLToPath(new URL("../../scripts/check-build-settings.ts", import.meta.url));
const run = (env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [script], { env: { PATH: process.env.PATH ?? "", ...env } }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );

describe("the build's settings", () => {
  it("stop the build with one line naming a wrong variable", async () => {
    const bad = await run({ MCP_REGISTRY_AUTH_PUBLIC_KEY: "abc" });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^CONFIGURATION ERROR: MCP_REGISTRY_AUTH_PUBLIC_KEY must be the base64 of a 32-byte/);
    expect(bad.stderr).not.toMatch(/\bat .+\.[jt]s:\d+/);
    const eventType = await run({ CAL_EVENT_TYPE_ID: "seven" });
    expect(eventType.stderr.trim()).toMatch(/^CONFIGURATION ERROR: CAL_EVENT_TYPE_ID must be a whole number/);
  });

  it("need no secret to offer booking: CAL_EVENT_TYPE_ID alone, the key being the functions'", async () => {
    const offered = await run({ CAL_EVENT_TYPE_ID: "7" });
    expect(offered.stderr).toBe("");
    expect(offered.code).toBe(0);
  });

  it("let a fork's build through with none of them set", async () => {
    expect(await run({})).toEqual({ code: 0, stderr: "" });
  });
});
