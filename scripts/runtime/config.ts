import { readFile } from "node:fs/promises";
import { parseEnv } from "node:util";
import { aboutSetting, parseSetting, settingNames, type SettingName } from "../../src/config/settings.ts";
import { localStoreTimeoutMs } from "../../src/store/redis.ts";

/**
 * The configuration of the local runtime: defaults, then .env, then the shell environment (the shell wins,
 * as under netlify dev). Every variable is in src/config/settings.ts, the README's table and docs/configuration.md.
 */
export interface RuntimeConfig {
  port: number;
  /** The public base URL; locally http://localhost:$PORT. */
  baseUrl: string;
  /** Where the runtime keeps its state: the store snapshot, the outbox, generated keys. */
  dataDir: string;
  /** Every variable the functions and edge functions receive. */
  env: Record<string, string>;
}

const ofKind = (...kinds: string[]) => settingNames.filter((name) => kinds.includes(aboutSetting(name).kind));
/** The variables the functions read that npm start takes from .env and the shell. */
export const productVariables: SettingName[] = ofKind("product");
/** Every variable npm start hands the functions in .env.runtime; others in the shell reach netlify dev untouched. */
export const functionVariables: SettingName[] = ofKind("product", "internal");
/** The deadlines npm start also takes from .env and the shell, when set there (a test's runtime sets them). */
const deadlines: SettingName[] = ["FRONTDOOR_STORE_TIMEOUT_MS", "FRONTDOOR_CAL_TIMEOUT_MS"];

/**
 * What the local runtime sets for the functions on top of the configuration (without Postmark, npm start also points
 * FRONTDOOR_OUTBOX_DIR at its outbox): a sender and an inbox for the outbox or the stand-in, and the local store's
 * deadline unless one is set.
 */
export function setLocalRuntimeVariables(env: Record<string, string | undefined>) {
  env.LEADS_TO ??= "leads@localhost";
  env.LEADS_FROM ??= "website@localhost";
  env.FRONTDOOR_STORE_TIMEOUT_MS ??= String(localStoreTimeoutMs);
}

export async function readDotEnv(file: string): Promise<Record<string, string>> {
  try {
    return parseEnv(await readFile(file, "utf8")) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

export function resolveConfig(shell: NodeJS.ProcessEnv, dotEnv: Record<string, string>): RuntimeConfig {
  const pick = (name: SettingName) => shell[name] ?? dotEnv[name];
  const port = parseSetting("PORT", pick("PORT")) ?? 8888;
  const baseUrl = parseSetting("URL", pick("URL")) ?? `http://localhost:${port}`;
  const env: Record<string, string> = {};
  for (const name of [...productVariables, ...deadlines]) {
    const value = pick(name);
    // Refused here too, so npm start stops with the reason rather than a door answering 503.
    parseSetting(name, value);
    if (value !== undefined && value !== "") env[name] = value;
  }
  env.URL = baseUrl;
  return { port, baseUrl, dataDir: parseSetting("FRONTDOOR_DATA_DIR", pick("FRONTDOOR_DATA_DIR")), env };
}

/**
 * A .env file body that both readers of it parse back to the same values: netlify dev (dotenv) and Node's parseEnv.
 * Single quotes are literal in both, so JSON values (the signing key set) survive. Double quotes are the fallback
 * for values holding a single quote, and only when there is no double quote or backslash, because dotenv does not
 * unescape \" (JSON.stringify-style quoting would corrupt a JSON value). Anything else is refused, not mangled.
 */
export function formatEnv(env: Record<string, string>): string {
  const quote = (name: string, value: string) => {
    if (/[\r\n]/.test(value)) throw new Error(`${name} holds a line break, which a .env file cannot carry`);
    if (!value.includes("'")) return `'${value}'`;
    if (!/["\\]/.test(value)) return `"${value}"`;
    throw new Error(`${name} holds both ' and " (or \\), which a .env file cannot carry unchanged`);
  };
  return `${Object.entries(env)
    .map(([name, value]) => `${name}=${quote(name, value)}`)
    .join("\n")}\n`;
}
