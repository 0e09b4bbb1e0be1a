import { spawn } from "node:child_process";
import { appendFile, copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { startDataStore } from "../../scripts/runtime/runtime.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { policies } from "../../src/limits/policies.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { besideTheSuite, root } from "../support/beside-the-suite.ts";
import { freshBrief } from "../support/briefs.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";
import { patience } from "../support/patience.ts";

/**
 * `npm start` stopped and started again over its data folder. What a kill leaves is the suite's own runtime's files as it
 * runs, copied; the store's own rules (a write is one log record and leaves the snapshot alone, Ctrl+C saves everything
 * into the snapshot, older snapshots' empty sets and keys that expired while stopped) are in tests/store/local-store-log
 * and local-store-snapshot. The refusal starts `npm start` beside the suite: it stops before netlify dev would start.
 */
const sameSite = besideTheSuite();
const base = inject("baseUrl");
const dataDir = inject("dataDir");
const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const dataFolder = async () => {
  const folder = await mkdtemp(join(tmpdir(), "frontdoor-restart-"));
  folders.push(folder);
  return folder;
};

/** `npm start` as a process, as an operator runs it; stopped (like Ctrl+C) if it is still running after a patience: it hangs. */
const npmStart = (env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ["scripts/start.ts"], { cwd: root, env });
    const timer = setTimeout(() => child.kill("SIGINT"), patience);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });

describe("npm start, stopped and started again over the same data folder", () => {
  it("killed while it runs, its store starts again with every write it answered", async () => {
    const { token } = await clientCredentialsToken(base, "svc:brief");
    const res = await fetch(`${base}/api/v1/briefs`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(freshBrief()),
    });
    expect(res.status).toBe(201);
    const { lead_id: id } = (await res.json()) as { lead_id: string };
    const running = new Redis({ ...inject("store"), enableTelemetry: false });
    const windows = Object.fromEntries(
      await Promise.all((await running.keys("rl:public-api:*")).map(async (key) => [key, await running.get(key)])),
    );
    expect(Object.keys(windows).length).toBeGreaterThan(0);

    // What a kill leaves on disk right now (the log first: see tests/store/local-store-log.test.ts), with the start of a
    // record that was being written when it died.
    const killed = await dataFolder();
    await copyFile(join(dataDir, "store.log"), join(killed, "store.log"));
    await copyFile(join(dataDir, "store.json"), join(killed, "store.json"));
    await appendFile(join(killed, "store.log"), '{"keys":[{"key":"lead:');

    // npm start's own store over the folder, as the next npm start opens it.
    const restarted = await startDataStore(killed);
    try {
      const store = new Redis({ url: restarted.url, token: restarted.token, enableTelemetry: false });
      expect((await store.get<Lead>(`lead:${id}`))?.id).toBe(id);
      for (const [key, count] of Object.entries(windows)) expect(await store.get(key)).toBe(count);
      // The quota's script runs on the restored store.
      expect(await upstashLimiter(store, { timeoutMs: patience }).consume("public-api", "restart-test")).toMatchObject({
        allowed: true,
        limit: policies["public-api"].quota,
      });
    } finally {
      await restarted.close();
    }
  });

  it("refuses to start from a snapshot it cannot read, says why and where it put it, and keeps it aside", async () => {
    const folder = await dataFolder();
    const unreadable = '{"format":"frontdoor-local-store/1","keys":[{"key":"lead:lead_1","type":"string","value":';
    await writeFile(join(folder, "store.json"), unreadable);

    const env: NodeJS.ProcessEnv = { ...process.env, ...sameSite(), FRONTDOOR_DATA_DIR: folder, PORT: String(await freePort()) };
    const start = await npmStart(env);

    expect(start.code).toBe(1);
    const [aside, ...others] = (await readdir(folder)).filter((name) => /^store\.unreadable-.+\.json$/.test(name));
    expect(others).toEqual([]);
    expect(await readFile(join(folder, aside!), "utf8")).toBe(unreadable);
    expect(await readdir(folder)).not.toContain("store.json");
    expect(start.out).toContain("frontdoor could not start:");
    expect(start.out).toContain(join(folder, "store.json"));
    expect(start.out).toContain(join(folder, aside!));
    expect(start.out).toContain("not JSON");
    expect(start.out).not.toMatch(/^\s+at /m);
  });
});
