/**
 * Reads configuration the same way in edge functions (Deno, `Netlify.env`), functions (Node, `Netlify.env` or
 * `process.env`) and tests (`process.env`). The doors read it only through `settingsFrom` (settings.ts), which checks
 * every variable against the one schema; the Netlify adapter only to find netlify dev and its memo's folder.
 */
export type Env = (name: string) => string | undefined;

declare const Netlify: { env: { get(name: string): string | undefined } } | undefined;

export const platformEnv: Env = (name) => {
  const value = typeof Netlify !== "undefined" ? Netlify.env.get(name) : globalThis.process?.env[name];
  return value === "" ? undefined : value;
};

/** A deployment that cannot work as configured: reported loudly, never silently downgraded. */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}
