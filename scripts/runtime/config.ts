import { readFile } from "node:fs/promises";
import { parseEnv } from "node:util";
import { dailyEmailLimitFrom } from "../../src/briefs/held.ts";

/**
 * The configuration of the local runtime: defaults, then .env, then the shell environment (the shell wins,
 * as under netlify dev). Every variable is documented in the README's configuration table.
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

/** The variables the product reads. Others in .env or the shell are passed through untouched by netlify dev. */
export const productVariables = [
  "URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "POSTMARK_SERVER_TOKEN",
  "POSTMARK_API_URL",
  "LEADS_TO",
  "LEADS_FROM",
  "LEADS_EMAIL_DAILY_LIMIT",
  "OAUTH_SIGNING_KEYS",
  "FRONTDOOR_ALLOW_LOOPBACK_CIMD",
] as const;

export async function readDotEnv(file: string): Promise<Record<string, string>> {
  try {
    return parseEnv(await readFile(file, "utf8")) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

export function resolveConfig(shell: NodeJS.ProcessEnv, dotEnv: Record<string, string>): RuntimeConfig {
  const pick = (name: string) => shell[name] ?? dotEnv[name];
  const portText = pick("PORT") ?? "8888";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, got "${portText}"`);
  const baseUrl = (pick("URL") ?? `http://localhost:${port}`).replace(/\/+$/, "");
  const env: Record<string, string> = {};
  for (const name of productVariables) {
    const value = pick(name);
    if (value !== undefined && value !== "") env[name] = value;
  }
  env.URL = baseUrl;
  // Refused here too, so npm start stops with the reason rather than every brief answering 503.
  dailyEmailLimitFrom(env.LEADS_EMAIL_DAILY_LIMIT);
  return { port, baseUrl, dataDir: pick("FRONTDOOR_DATA_DIR") ?? ".data", env };
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
