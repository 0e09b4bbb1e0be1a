import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseKeySet, publicJwk } from "../../src/tokens/keys.ts";

/**
 * What a build depends on: every source file's path, size and modification time, the base URL, the public parts
 * of the signing keys (the agent card is signed at build time, so a new key set means a new card), whether agents can
 * book the intro call (the tools, skills and pages say so), and the MCP Registry's name and domain key.
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

/** The variables the build reads beyond the base URL; every one of them is a setting of src/config/settings.ts. */
export interface BuildVariables {
  OAUTH_SIGNING_KEYS?: string;
  CAL_EVENT_TYPE_ID?: string;
  CAL_API_KEY?: string;
  MCP_REGISTRY_NAME?: string;
  MCP_REGISTRY_AUTH_PUBLIC_KEY?: string;
}

export async function buildFingerprint(root: string, baseUrl: string, variables: BuildVariables = {}): Promise<string> {
  const hash = createHash("sha256").update(baseUrl);
  const { OAUTH_SIGNING_KEYS: signingKeys, CAL_EVENT_TYPE_ID: eventType } = variables;
  if (signingKeys) hash.update(`\0${JSON.stringify(parseKeySet(signingKeys).map(publicJwk))}`);
  hash.update(`\0booking:${eventType !== undefined}`);
  hash.update(`\0registry:${variables.MCP_REGISTRY_NAME ?? ""}:${variables.MCP_REGISTRY_AUTH_PUBLIC_KEY ?? ""}`);
  for (const input of inputs) {
    for await (const file of files(join(root, input))) {
      const info = await stat(file);
      hash.update(`${file}\0${info.size}\0${info.mtimeMs}\n`);
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
      env: { ...withoutBuildVariables(process.env), URL: baseUrl, ASTRO_TELEMETRY_DISABLED: "1", ...definedOnly(variables) },
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
const withoutBuildVariables = (env: NodeJS.ProcessEnv) => {
  const {
    OAUTH_SIGNING_KEYS: _keys,
    CAL_EVENT_TYPE_ID: _eventType,
    CAL_API_KEY: _key,
    MCP_REGISTRY_NAME: _registryName,
    MCP_REGISTRY_AUTH_PUBLIC_KEY: _registryKey,
    ...rest
  } = env;
  return rest;
};

const definedOnly = (variables: BuildVariables) => Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined));
