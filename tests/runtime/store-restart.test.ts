import { spawn } from "node:child_process";
import { appendFile, copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { startIsolatedRuntime } from "../../scripts/runtime/isolated.ts";
import { startDataStore, type Runtime } from "../../scripts/runtime/runtime.ts";
import { upstashLimiter } from "../../src/limits/limiter.ts";
import { policies } from "../../src/limits/policies.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { besideTheSuite, root } from "../support/beside-the-suite.ts";
import { freshBrief } from "../support/briefs.ts";
import { patience } from "../support/patience.ts";

/**
 * `npm start` stopped and started again over the same data folder. These runtimes share the checkout with the suite's
 * own: they take its base URL and signing keys so that dist/ is not rebuilt under it, and put back the .env.runtime
 * that `npm run leads` finds the suite's running store through.
 */
const sameSite = besideTheSuite();
const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const dataFolder = async () => {
  const folder = await mkdtemp(join(tmpdir(), "frontdoor-restart-"));
  folders.push(folder);
  return folder;
};

/** A svc:brief token from this runtime itself (its discovery document names the suite's base URL, not its port). */
async function briefToken(base: string): Promise<string> {
  const registration = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "restart test",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_post",
    }),
  });
  const client = (await registration.json()) as { client_id: string; client_secret: string };
  const grant = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "svc:brief", ...client }),
  });
  return ((await grant.json()) as { access_token: string }).access_token;
}

const storeOf = (runtime: Runtime) => new Redis({ url: runtime.store!.url, token: runtime.store!.token, enableTelemetry: false });
const leadIn = async (runtime: Runtime, id: string) => storeOf(runtime).get<Lead>(`lead:${id}`);

interface SavedKey {
  key: string;
  type: string;
  value: string | string[];
  expires_at: number | null;
}
const snapshotIn = async (folder: string) =>
  JSON.parse(await readFile(join(folder, "store.json"), "utf8")) as { format: string; saved_at: string; keys: SavedKey[] };

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
  // One runtime takes the writes and is stopped as Ctrl+C stops it; npm start's store then starts over the folder it left,
  // and over what a kill would have left. Each start of netlify dev costs seconds: one covers what four did.
  let folder: string;
  let killed: string;
  let id: string;
  let windows: Record<string, unknown>;

  it("answers a write without rewriting its snapshot, and stopped, saves everything into the snapshot", async () => {
    folder = await dataFolder();
    const first = await startIsolatedRuntime(root, sameSite(), { dataDir: folder, startLimitMs: patience });
    try {
      const token = await briefToken(first.url);
      const snapshot = await readFile(join(folder, "store.json"), "utf8");
      // Each read counts against the quota: one EVALSHA, a write of the store.
      for (let i = 0; i < 5; i++) expect((await fetch(`${first.url}/api/v1`)).status).toBe(200);
      const res = await fetch(`${first.url}/api/v1/briefs`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(freshBrief()),
      });
      expect(res.status).toBe(201);
      id = ((await res.json()) as { lead_id: string }).lead_id;
      expect(await readFile(join(folder, "store.json"), "utf8")).toBe(snapshot);
      await expect.poll(async () => (await leadIn(first, id))?.delivery.state).toBe("delivered");

      // What a kill leaves on disk right now (the log first: see tests/store/local-store-log.test.ts), with the start
      // of a record that was being written when it died.
      killed = await dataFolder();
      await copyFile(join(folder, "store.log"), join(killed, "store.log"));
      await copyFile(join(folder, "store.json"), join(killed, "store.json"));
      await appendFile(join(killed, "store.log"), '{"keys":[{"key":"lead:');
      const store = storeOf(first);
      windows = Object.fromEntries(
        await Promise.all((await store.keys("rl:public-api:*")).map(async (key) => [key, await store.get(key)])),
      );
      expect(Object.keys(windows).length).toBeGreaterThan(0);
    } finally {
      await first.stop();
    }
    // Stopped as Ctrl+C stops it: everything is in the snapshot, and the log holds no record.
    expect((await snapshotIn(folder)).keys.map((k) => k.key)).toContain(`lead:${id}`);
    expect((await readFile(join(folder, "store.log"), "utf8")).trimEnd().split("\n")).toHaveLength(1);
  });

  it("starts again over its snapshot plus an empty sorted set and an expired key", async () => {
    // Nothing is owed any more. A snapshot written before this fix keeps the emptied queue as an empty sorted set;
    // keys also expire while the runtime is stopped.
    const saved = await snapshotIn(folder);
    expect(saved.keys.find((k) => k.key === "leads:due")?.value ?? []).toEqual([]);
    expect(saved.keys.map((k) => k.key)).toContain(`lead:${id}`);
    saved.keys = [
      ...saved.keys.filter((k) => k.key !== "leads:due"),
      { key: "leads:due", type: "zset", value: [], expires_at: null },
      { key: "restart-test:expired", type: "string", value: "gone", expires_at: Date.now() - 1000 },
    ];
    await writeFile(join(folder, "store.json"), JSON.stringify(saved));

    // npm start's own store over the folder, as the next npm start opens it (the first test showed netlify dev in front).
    const second = await startDataStore(folder);
    try {
      expect(second.restored).toBeGreaterThan(0);
      const store = new Redis({ url: second.url, token: second.token, enableTelemetry: false });
      // The quota's script runs on the restored store, and the lead is there as it was left.
      expect(await upstashLimiter(store, { timeoutMs: patience }).consume("public-api", "restart-test")).toMatchObject({
        allowed: true,
        limit: policies["public-api"].quota,
      });
      expect((await store.get<Lead>(`lead:${id}`))?.delivery.state).toBe("delivered");
      expect(await store.exists("restart-test:expired")).toBe(0);
    } finally {
      await second.close();
    }
    const resaved = await snapshotIn(folder);
    expect(resaved.keys.map((k) => k.key)).toContain(`lead:${id}`);
    expect(resaved.keys.filter((k) => Array.isArray(k.value) && k.value.length === 0)).toEqual([]);
    expect(resaved.keys.map((k) => k.key)).not.toContain("restart-test:expired");
  });

  it("killed, its store starts again with every write answered", async () => {
    // What is checked is the store alone: npm start's own store over the folder, without a netlify dev to start.
    const third = await startDataStore(killed);
    try {
      const store = new Redis({ url: third.url, token: third.token, enableTelemetry: false });
      expect((await store.get<Lead>(`lead:${id}`))?.id).toBe(id);
      for (const [key, count] of Object.entries(windows)) expect(await store.get(key)).toBe(count);
    } finally {
      await third.close();
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
