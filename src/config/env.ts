/**
 * Reads configuration the same way in edge functions (Deno, `Netlify.env`), functions (Node, `Netlify.env` or
 * `process.env`) and tests (`process.env`). Handlers never read the environment themselves: their adapters
 * pass what they need.
 */
export type Env = (name: string) => string | undefined;

declare const Netlify: { env: { get(name: string): string | undefined } } | undefined;

export const platformEnv: Env = (name) => {
  const value = typeof Netlify !== "undefined" ? Netlify.env.get(name) : globalThis.process?.env[name];
  return value === "" ? undefined : value;
};

/** The public base URL without a trailing slash; Netlify sets URL on every deploy, npm start sets it locally. */
export function baseUrlFrom(env: Env): string {
  const url = env("URL");
  if (!url) throw new ConfigurationError("URL is not set: it must be the public base URL of the site");
  return url.replace(/\/+$/, "");
}

/** A deployment that cannot work as configured: reported loudly, never silently downgraded. */
/** Under netlify dev (the local runtime, `npm start`). */
export const isNetlifyDev = (env: Env) => env("NETLIFY_DEV") === "true";

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}
