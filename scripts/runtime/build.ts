import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { buildSettingNames, type SettingName } from "../../src/config/settings.ts";
import { parseKeySet, publicJwk } from "../../src/tokens/keys.ts";

/**
 * What a build depends on: every source file's path (from the root) and bytes, the base URL, and what the build takes
 * from each other variable it reads (the settings the schema marks `readByBuild`).
 */
const inputs = ["content", "src", "public", "astro.config.mjs", "package-lock.json"];

async function* files(path: string): AsyncGenerator<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) {
    yield path;
    return;
  }
  for (const entry of (await readdir(path)).sort()) yield* files(join(path, entry));
}

/** The variables the build reads that are set: the settings the schema marks `readByBuild`. */
export type BuildVariables = Partial<Record<SettingName, string>>;

export const buildVariablesOf = (env: Record<string, string | undefined>): BuildVariables =>
  Object.fromEntries(buildSettingNames.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])));

/** What the build takes from a variable, where that is less than its value; the fingerprint hashes only that. */
const whatTheBuildTakes: Partial<Record<SettingName, (value: string) => string>> = {
  // The agent card is signed at build time, so a new key set means a new card; only the public parts are written.
  OAUTH_SIGNING_KEYS: (keys) => JSON.stringify(parseKeySet(keys).map(publicJwk)),
  // The build asks only whether agents can book.
  CAL_EVENT_TYPE_ID: () => "set",
};

export async function buildFingerprint(root: string, baseUrl: string, variables: BuildVariables = {}): Promise<string> {
  const hash = createHash("sha256").update(baseUrl);
  for (const name of buildSettingNames) {
    const value = variables[name];
    // The base URL is hashed above: npm start always builds for one.
    if (name === "URL" || value === undefined) continue;
    hash.update(`\0${name}=${whatTheBuildTakes[name]?.(value) ?? value}`);
  }
  for (const input of inputs) {
    for await (const file of files(join(root, input))) {
      // Paths from the checkout's root and bytes, not times: a fresh clone or a copy of the checkout (as
      // tests/support/runtime-of-its-own.ts makes) is the same build.
      const bytes = await readFile(file);
      hash.update(`${relative(root, file)}\0${bytes.length}\0`).update(bytes);
    }
  }
  return hash.digest("hex");
}

/**
 * Builds the site unless dist/ was built from the same sources for the same base URL and keys. The build's own output
 * goes to `output` when given (tests and benches keep it for failures), to the terminal otherwise.
 */
export async function buildIfNeeded(
  root: string,
  baseUrl: string,
  stampFile: string,
  log: (line: string) => void,
  variables: BuildVariables = {},
  output?: (chunk: string) => void,
) {
  const fingerprint = await buildFingerprint(root, baseUrl, variables);
  const previous = await readFile(stampFile, "utf8").catch(() => "");
  const built = await stat(join(root, "dist", "index.html")).then(
    () => true,
    () => false,
  );
  if (built && previous === fingerprint) {
    log("The site in dist/ is up to date.");
    return;
  }
  log(`Building the site for ${baseUrl} ...`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "node_modules/astro/bin/astro.mjs"), "build"], {
      cwd: root,
      env: { ...withoutBuildVariables(process.env), URL: baseUrl, ASTRO_TELEMETRY_DISABLED: "1", ...variables },
      stdio: ["ignore", output ? "pipe" : "inherit", output ? "pipe" : "inherit"],
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => output?.(chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => output?.(chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`astro build failed (exit code ${code})`))));
  });
  await writeFile(stampFile, fingerprint);
}

/** The shell's own values of the build's variables give way to the runtime's (which read them, with .env's, first). */
const withoutBuildVariables = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !(buildSettingNames as string[]).includes(name)));
