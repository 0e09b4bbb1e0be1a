import { readFile } from "node:fs/promises";
import { parseEnv } from "node:util";

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
  return { port, baseUrl, dataDir: pick("FRONTDOOR_DATA_DIR") ?? ".data", env };
}

/** A .env file body; values are quoted so that no character changes meaning. */
export const formatEnv = (env: Record<string, string>) =>
  Object.entries(env)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join("\n") + "\n";
