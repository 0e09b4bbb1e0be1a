import { z } from "zod";
import { ConfigurationError, type Env } from "./env.ts";

/**
 * Who sets a setting and who reads it. The README's table says what it means and shows every field but `kind` and `unset`;
 * `.env.example` lists those an operator may set (by `kind`); tests/unit/settings.test.ts holds both files to these.
 */
export interface About {
  /** The default as the README shows it; absent: none. */
  default?: string;
  /**
   * `product`: the functions read it; npm start forwards it from .env and the shell. `runtime`: only npm start reads it.
   * `internal`: npm start sets it for the functions. `netlify`: the platform sets it on each deploy.
   */
  kind: "product" | "runtime" | "internal" | "netlify";
  requiredInProduction?: boolean;
  secret?: boolean;
  /**
   * The site the build writes depends on it: npm start hands it to the build and rebuilds dist/ when it changes, `npm run
   * build` checks it before Astro starts, and on Netlify it needs the Builds scope as well as Functions.
   */
  readByBuild?: boolean;
  /** Why it cannot work unset, for the configuration error: "<NAME> is not set: <unset>". */
  unset?: string;
}

const about = <S extends z.ZodType>(schema: S, meta: About): S => schema.meta(meta as unknown as Record<string, unknown>);
const string = (meta: About) => about(z.string().optional(), meta);
const wholeNumber = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `must be a whole number ${what}, not "${String(issue.input)}"` })
    .transform(Number);

/** The MCP Registry's rule for a server name (server.json schema 2025-12-11): `<namespace>/<name>`, 3 to 200 characters. */
export const registryNamePattern = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** An Ed25519 public key as the registry's HTTP proof carries it: the base64 of its 32 raw bytes. */
const ed25519PublicKey = z
  .string()
  .trim()
  .refine((key) => /^[A-Za-z0-9+/]+={0,2}$/.test(key) && key.length % 4 === 0 && atob(key).length === 32, {
    error: "must be the base64 of a 32-byte Ed25519 public key: openssl pkey -in key.pem -pubout -outform DER | tail -c 32 | base64",
  })
  // All zeroes is no key anybody holds (a low-order point): a placeholder, never a proof.
  .refine((key) => /[^A=]/.test(key), { error: "is all zeroes: set the public key of a key pair you generated" });

/** The default of LEADS_EMAIL_DAILY_LIMIT. */
export const defaultDailyEmailLimit = 50;

/**
 * Every variable the product and its local runtime read: the one list. The functions read it through `settingsFrom`,
 * scripts/runtime/ forwards, clears and hands the build variables by it, and tests/unit/settings.test.ts holds
 * `.env.example` and the README's table to it.
 */
export const settingsSchema = z.object({
  PORT: about(
    z
      .string()
      .regex(/^\d{1,5}$/, { error: (issue) => `must be a port number, not "${String(issue.input)}"` })
      .transform(Number)
      .refine((port) => port >= 1 && port <= 65535, { error: "must be a port number from 1 to 65535" })
      .optional(),
    { kind: "runtime", default: "`8888`" },
  ),
  URL: about(
    z
      .string()
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    {
      kind: "product",
      requiredInProduction: true,
      default: "`http://localhost:$PORT`",
      readByBuild: true,
      unset: "it must be the public base URL of the site",
    },
  ),
  UPSTASH_REDIS_REST_URL: string({
    kind: "product",
    requiredInProduction: true,
    unset: "production needs an Upstash Redis database; locally, `npm start` runs the local store and sets it",
  }),
  UPSTASH_REDIS_REST_TOKEN: string({
    kind: "product",
    requiredInProduction: true,
    secret: true,
    unset: "production needs an Upstash Redis database; locally, `npm start` runs the local store and sets it",
  }),
  POSTMARK_SERVER_TOKEN: string({ kind: "product", requiredInProduction: true, secret: true }),
  POSTMARK_API_URL: about(z.string().default("https://api.postmarkapp.com"), { kind: "product", default: "`https://api.postmarkapp.com`" }),
  LEADS_TO: string({ kind: "product" }),
  LEADS_FROM: string({ kind: "product" }),
  LEADS_EMAIL_DAILY_LIMIT: about(wholeNumber("of leads a day (0 holds every lead)").default(defaultDailyEmailLimit), {
    kind: "product",
    default: "`50`",
  }),
  CAL_EVENT_TYPE_ID: about(wholeNumber("(the id of a Cal.com event type)").optional(), { kind: "product", readByBuild: true }),
  CAL_API_URL: about(z.string().default("https://api.cal.com"), { kind: "product", default: "`https://api.cal.com`" }),
  CAL_API_KEY: string({
    kind: "product",
    secret: true,
    readByBuild: true,
    unset:
      "booking looks the person's booking up before booking and after a call that got no answer (Cal.com's GET /v2/bookings needs an API key), so it is required with CAL_EVENT_TYPE_ID",
  }),
  OAUTH_SIGNING_KEYS: string({ kind: "product", requiredInProduction: true, secret: true, readByBuild: true }),
  MCP_REGISTRY_NAME: about(
    z
      .string()
      .trim()
      .regex(registryNamePattern, {
        error: "must be a registry name, <namespace>/<name>: letters, digits, dots and hyphens (underscores too after the slash)",
      })
      .max(200, { error: "must be at most 200 characters" })
      .optional(),
    { kind: "product", default: "the server card's name", readByBuild: true },
  ),
  MCP_REGISTRY_AUTH_PUBLIC_KEY: about(ed25519PublicKey.optional(), { kind: "product", readByBuild: true }),
  FRONTDOOR_ALLOW_LOOPBACK_CIMD: about(
    z
      .string()
      .optional()
      .transform((value) => value === "1"),
    { kind: "product" },
  ),
  FRONTDOOR_DATA_DIR: about(z.string().default(".data"), { kind: "runtime", default: "`.data`" }),
  FRONTDOOR_OUTBOX_DIR: string({ kind: "internal" }),
  FRONTDOOR_STORE_TIMEOUT_MS: about(wholeNumber("of milliseconds").optional(), { kind: "internal", default: "`1500`" }),
  FRONTDOOR_CAL_TIMEOUT_MS: about(wholeNumber("of milliseconds").optional(), { kind: "internal", default: "`8000`" }),
  DEPLOY_URL: string({ kind: "netlify" }),
  DEPLOY_PRIME_URL: string({ kind: "netlify" }),
  SITE_NAME: string({ kind: "netlify" }),
});

export type Settings = z.output<typeof settingsSchema>;
export type SettingName = keyof Settings;
export const settingNames = Object.keys(settingsSchema.shape) as SettingName[];
export const aboutSetting = (name: SettingName) => settingsSchema.shape[name].meta() as unknown as About;
/** The variables the build reads: npm start's build and its fingerprint, `npm run build`'s check and the tests take them from here. */
export const buildSettingNames = settingNames.filter((name) => aboutSetting(name).readByBuild);

/** One setting from its text (blank is unset); a ConfigurationError names the variable and what is wrong with it. */
export function parseSetting<N extends SettingName>(name: N, value: string | undefined): Settings[N] {
  const result = settingsSchema.shape[name].safeParse(value?.trim() === "" ? undefined : value);
  if (!result.success) throw new ConfigurationError(`${name} ${result.error.issues[0]!.message}`);
  return result.data as Settings[N];
}

/** The configuration as a door reads it: each setting parsed on first use, then kept. */
export interface Configuration {
  get<N extends SettingName>(name: N): Settings[N];
  /** As `get`, and unset is a ConfigurationError too. */
  required<N extends SettingName>(name: N): NonNullable<Settings[N]>;
}

const configurations = new WeakMap<Env, Configuration>();

/**
 * The configuration over an environment, one per environment (so once per process over the platform's). A setting that
 * is unset or wrong is read again when next asked for: a door tries a misconfiguration again on its next request.
 */
export function settingsFrom(env: Env): Configuration {
  let configuration = configurations.get(env);
  if (configuration) return configuration;
  const kept = new Map<SettingName, unknown>();
  const get = <N extends SettingName>(name: N): Settings[N] => {
    if (kept.has(name)) return kept.get(name) as Settings[N];
    const raw = env(name);
    const value = parseSetting(name, raw);
    if (raw) kept.set(name, value);
    return value;
  };
  configuration = {
    get,
    required(name) {
      const value = get(name);
      if (value === undefined) throw new ConfigurationError(`${name} is not set: ${aboutSetting(name).unset ?? "it is required"}`);
      return value as NonNullable<Settings[typeof name]>;
    },
  };
  configurations.set(env, configuration);
  return configuration;
}
