import { deliverLeadsFunctionPath } from "../../src/paths.ts";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildDoors, type DoorBuild } from "../lib/doors.ts";
import { startLocalStore, type LocalStore } from "../local-store/store.ts";
import { buildIfNeeded, buildVariablesOf } from "./build.ts";
import { formatEnv, readDotEnv, resolveConfig, setLocalRuntimeVariables, type RuntimeConfig } from "./config.ts";
import { freePort } from "../lib/free-port.ts";
import { startFront, type Front } from "./front.ts";
import { spawnNetlifyDev, stopProcessGroup, waitUntilListening, waitUntilServing } from "./netlify.ts";
import { localSigningKeys } from "./signing-keys.ts";
import { planLocalCalCom, startLocalCalCom } from "./cal-com.ts";
import type { CalStandIn } from "../local-calcom/standin.ts";

export interface Runtime {
  config: RuntimeConfig;
  url: string;
  store?: LocalStore;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  root: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Receives netlify dev's own output (the CLI prints it; tests keep it for failures). */
  output?: (chunk: string) => void;
  /** Whether the checkout's .env is read (npm start); a test's runtime takes only what it is given. */
  readsDotEnv?: boolean;
  /** How long netlify dev may take to listen, and then to serve (90 s each): a test's runtime on a loaded machine waits longer. */
  startLimitMs?: number;
}

/**
 * The whole local runtime: configuration, the build, the local store (unless Upstash is configured), and
 * netlify dev serving static files, functions and edge functions with one set of variables.
 */
export async function startRuntime({
  root,
  env = process.env,
  log = console.log,
  output,
  readsDotEnv = true,
  startLimitMs = 90_000,
}: RuntimeOptions): Promise<Runtime> {
  const config = resolveConfig(env, readsDotEnv ? await readDotEnv(join(root, ".env")) : {});
  const dataDir = resolve(root, config.dataDir);
  await mkdir(dataDir, { recursive: true });

  config.env.OAUTH_SIGNING_KEYS ??= await localSigningKeys(join(dataDir, "signing-keys.json"), log);

  let store: LocalStore | undefined;
  if (!config.env.UPSTASH_REDIS_REST_URL) {
    store = await startDataStore(dataDir);
    config.env.UPSTASH_REDIS_REST_URL = store.url;
    config.env.UPSTASH_REDIS_REST_TOKEN = store.token;
    log(
      `Upstash is not configured: using the local store at ${store.url} (${store.restored} keys restored from ${join(config.dataDir, "store.json")}).`,
    );
  }

  // Without Postmark, lead e-mails become files here (see src/briefs/delivery-config.ts).
  if (!config.env.POSTMARK_SERVER_TOKEN) {
    config.env.FRONTDOOR_OUTBOX_DIR = join(dataDir, "outbox");
    log(`Postmark is not configured: lead e-mails are written to ${join(config.dataDir, "outbox")}.`);
  }
  setLocalRuntimeVariables(config.env);

  let doors: DoorBuild | undefined;
  let cal: CalStandIn | undefined;
  try {
    // dist/ and netlify.toml are per checkout, so the build fingerprint and .env.runtime stay in the checkout
    // whatever FRONTDOOR_DATA_DIR says. netlify.toml's [dev] envFiles names .env.runtime: edge functions see no
    // variable that exists only in the shell, and netlify dev passes them only files whose names start with .env.
    await mkdir(join(root, ".data"), { recursive: true });
    // Without Cal.com, a stand-in that speaks its API books the intro call (see ./cal-com.ts); the build knows agents can book.
    const localCal = planLocalCalCom(config.env);
    // The build takes its variables from the functions' (so it signs the agent card with the key set they sign tokens with).
    await buildIfNeeded(root, config.baseUrl, join(root, ".data", "build-fingerprint"), log, buildVariablesOf(config.env), output);
    // Each function imports its door from build/doors/; rebuilt on every change while netlify dev runs, which then
    // rebuilds the function as it does when a function's own source changes.
    doors = await buildDoors(root, { watch: true, log });
    if (localCal) cal = await startLocalCalCom(root, localCal, config.env, dataDir, log);
    await writeFile(join(root, ".env.runtime"), `# Written by npm start from .env and the shell; do not edit.\n${formatEnv(config.env)}`, {
      mode: 0o600,
    });

    let serving = await serveBehindFront(root, config, env, startLimitMs, output);
    let stopping = false;
    let restarting: Promise<void> | undefined;
    // netlify dev ends itself on any error it does not catch (netlify-cli's uncaughtException handler), after which the
    // front could only answer 502: it is started again, on a fresh internal port behind a fresh front.
    const restartWhenItExits = (netlifyDev: ChildProcess) =>
      netlifyDev.once("exit", (code, signal) => {
        if (stopping) return;
        log(`netlify dev exited (${signal ?? `code ${code}`}); starting it again.`);
        restarting = (async () => {
          await serving.front.close();
          await stopProcessGroup(netlifyDev);
          try {
            serving = await serveBehindFront(root, config, env, startLimitMs, output);
            restartWhenItExits(serving.netlifyDev);
            log(`netlify dev is serving again at http://localhost:${config.port}.`);
          } catch (error) {
            log(`netlify dev could not be started again (${String(error)}); stop npm start (Ctrl+C) and run it again.`);
          }
        })();
      });
    restartWhenItExits(serving.netlifyDev);

    const url = `http://localhost:${config.port}`;
    const retries = scheduleLeadDelivery(url, log);
    return {
      config,
      url,
      store,
      async stop() {
        stopping = true;
        clearInterval(retries);
        await restarting;
        await serving.front.close();
        await stopProcessGroup(serving.netlifyDev);
        await doors?.dispose();
        await cal?.close();
        await store?.close();
      },
    };
  } catch (error) {
    await doors?.dispose();
    await cal?.close();
    await store?.close();
    throw error;
  }
}

/**
 * netlify dev on a fresh internal port with the front on PORT before it; resolves once the site answers there. netlify
 * dev first checks that PORT is free, so the front takes it only once netlify dev listens (behind-front.ts).
 */
async function serveBehindFront(
  root: string,
  config: RuntimeConfig,
  env: NodeJS.ProcessEnv,
  limitMs: number,
  output?: (chunk: string) => void,
): Promise<{ netlifyDev: ChildProcess; front: Front }> {
  const internalPort = await freePort();
  const netlifyDev = spawnNetlifyDev(root, config.port, internalPort, config.baseUrl, env);
  netlifyDev.stdout?.setEncoding("utf8").on("data", (chunk: string) => output?.(chunk));
  netlifyDev.stderr?.setEncoding("utf8").on("data", (chunk: string) => output?.(chunk));
  let front: Front | undefined;
  try {
    await waitUntilListening(internalPort, netlifyDev, limitMs);
    front = await startFront(config.port, internalPort);
    await waitUntilServing(`http://localhost:${config.port}/`, netlifyDev, limitMs);
    return { netlifyDev, front };
  } catch (error) {
    await front?.close();
    await stopProcessGroup(netlifyDev);
    throw error;
  }
}

/** The local store over a data folder (its snapshot and log there), as npm start runs it: a file it cannot read is kept aside. */
export const startDataStore = (dataDir: string): Promise<LocalStore> =>
  startLocalStore({ token: randomBytes(24).toString("hex"), snapshotFile: join(dataDir, "store.json"), unreadableSnapshot: "keep-aside" });

/**
 * netlify dev loads scheduled functions but never runs them on their schedule, so the runtime invokes the lead
 * delivery job itself, once a minute, as Netlify does in production.
 */
function scheduleLeadDelivery(url: string, log: (line: string) => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    fetch(`${url}${deliverLeadsFunctionPath}`, {
      method: "POST",
      body: JSON.stringify({ next_run: new Date(Date.now() + 60_000).toISOString() }),
    })
      .then((res) => res.body?.cancel())
      .catch((error: unknown) => log(`lead delivery job could not run: ${String(error)}`));
  }, 60_000);
  timer.unref();
  return timer;
}
