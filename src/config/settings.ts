import { z } from "zod";
import { ConfigurationError, type Env } from "./env.ts";

/**
 * What a setting does, who sets it and who reads it. `npm run config-table` writes two tables from these: the README's
 * (summary, default, whether production needs it) and docs/configuration.md's (every field but `summary` and `unset`),
 * whose sections say the rest. `.env.example` lists those an operator may set (by `kind`). tests/unit/settings.test.ts
 * holds the three files to these.
 */
export interface About {
  /** What it does, in one short line (at most 90 characters): the README's table. */
  summary: string;
  /** The default as the tables show it; absent: none. */
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

/** The lead inbox and its sender, said in one line, so the tables show them in one row. */
const leadAddresses = "The lead inbox and the Postmark sender signature; required with `POSTMARK_SERVER_TOKEN`.";
/** What the three variables Netlify sets on each deploy are for: one line, so the tables show them in one row. */
const deployOrigins = "The deploy's own URLs and the site's `netlify.app` name: origins `/mcp` accepts.";

/** The default of LEADS_EMAIL_DAILY_LIMIT. */
export const defaultDailyEmailLimit = 50;

/**
 * Every variable the product and its local runtime read: the one list. The functions read it through `settingsFrom`,
 * scripts/runtime/ forwards, clears and hands the build variables by it, and tests/unit/settings.test.ts holds
 * `.env.example`, the README's table and docs/configuration.md to it.
 */
export const settingsSchema = z.object({
  PORT: about(
    z
      .string()
      .regex(/^\d{1,5}$/, { error: (issue) => `must be a port number, not "${String(issue.input)}"` })
      .transform(Number)
      .refine((port) => port >= 1 && port <= 65535, { error: "must be a port number from 1 to 65535" })
      .optional(),
    { kind: "runtime", default: "`8888`", summary: "The port the local runtime serves on." },
  ),
  URL: about(
    z
      .string()
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    {
      kind: "product",
      summary: "The public base URL of every absolute link. Netlify sets it; leave it unset locally.",
      requiredInProduction: true,
      default: "`http://localhost:$PORT`",
      readByBuild: true,
      unset: "it must be the public base URL of the site",
    },
  ),
  UPSTASH_REDIS_REST_URL: string({
    kind: "product",
    summary: "The Upstash Redis database: quotas, leads, tasks, OAuth clients. Locally, the local store.",
    requiredInProduction: true,
    unset: "production needs an Upstash Redis database; locally, `npm start` runs the local store and sets it",
  }),
  UPSTASH_REDIS_REST_TOKEN: string({
    kind: "product",
    summary: "The database's token. Locally, the local store's.",
    requiredInProduction: true,
    secret: true,
    unset: "production needs an Upstash Redis database; locally, `npm start` runs the local store and sets it",
  }),
  POSTMARK_SERVER_TOKEN: string({
    kind: "product",
    summary: "Postmark's token for lead e-mails; unset locally, they are files in `.data/outbox/`.",
    requiredInProduction: true,
    secret: true,
  }),
  POSTMARK_API_URL: about(z.string().default("https://api.postmarkapp.com"), {
    kind: "product",
    summary: "Postmark's API, or a stand-in such as `http://127.0.0.1:9999`.",
    default: "`https://api.postmarkapp.com`",
  }),
  LEADS_TO: string({ kind: "product", summary: leadAddresses }),
  LEADS_FROM: string({ kind: "product", summary: leadAddresses }),
  LEADS_EMAIL_DAILY_LIMIT: about(wholeNumber("of leads a day (0 holds every lead)").default(defaultDailyEmailLimit), {
    kind: "product",
    summary: "Leads e-mailed one by one a UTC day; later ones are held. `0` holds every lead.",
    default: "`50`",
  }),
  CAL_EVENT_TYPE_ID: about(wholeNumber("(the id of a Cal.com event type)").optional(), {
    kind: "product",
    summary: "The intro call's Cal.com event type. Unset: agents cannot book it (locally, a stand-in).",
    readByBuild: true,
  }),
  CAL_API_URL: about(z.string().default("https://api.cal.com"), {
    kind: "product",
    summary: "A self-hosted Cal.com's API, or a stand-in.",
    default: "`https://api.cal.com`",
  }),
  CAL_API_KEY: string({
    kind: "product",
    summary: "An API key of the event type's owner; required with `CAL_EVENT_TYPE_ID`.",
    secret: true,
    unset:
      "booking looks the person's booking up before booking and after a call that got no answer (Cal.com's GET /v2/bookings needs an API key), so it is required with CAL_EVENT_TYPE_ID",
  }),
  OAUTH_SIGNING_KEYS: string({
    kind: "product",
    summary: "The keys that sign access tokens and the agent card: `npm run -s keys -- generate`.",
    requiredInProduction: true,
    secret: true,
    readByBuild: true,
  }),
  MCP_REGISTRY_NAME: about(
    z
      .string()
      .trim()
      .regex(registryNamePattern, {
        error: "must be a registry name, <namespace>/<name>: letters, digits, dots and hyphens (underscores too after the slash)",
      })
      .max(200, { error: "must be at most 200 characters" })
      .optional(),
    {
      kind: "product",
      summary: "The MCP server's name in the MCP Registry, written into `server.json`.",
      default: "the server card's name",
      readByBuild: true,
    },
  ),
  MCP_REGISTRY_AUTH_PUBLIC_KEY: about(ed25519PublicKey.optional(), {
    kind: "product",
    summary: "The Ed25519 public key that proves the domain to the MCP Registry.",
    readByBuild: true,
  }),
  FRONTDOOR_ALLOW_LOOPBACK_CIMD: about(
    z
      .string()
      .optional()
      .transform((value) => value === "1"),
    { kind: "product", summary: "Test-only: `1` lets OAuth client metadata documents live on `http://127.0.0.1`." },
  ),
  FRONTDOOR_DATA_DIR: about(z.string().default(".data"), {
    kind: "runtime",
    summary: "Where the local runtime keeps its data: the store, the outbox, its keys.",
    default: "`.data`",
  }),
  FRONTDOOR_OUTBOX_DIR: string({
    kind: "internal",
    summary: "Set by `npm start` without Postmark: the folder lead e-mails are written to.",
  }),
  FRONTDOOR_STORE_TIMEOUT_MS: about(wholeNumber("of milliseconds").optional(), {
    kind: "internal",
    summary: "How long one Upstash command may take before it counts as an outage.",
    default: "`1500`",
  }),
  FRONTDOOR_CAL_TIMEOUT_MS: about(wholeNumber("of milliseconds").optional(), {
    kind: "internal",
    summary: "How long one Cal.com call may take before the booking is looked up.",
    default: "`8000`",
  }),
  DEPLOY_URL: string({ kind: "netlify", summary: deployOrigins }),
  DEPLOY_PRIME_URL: string({ kind: "netlify", summary: deployOrigins }),
  SITE_NAME: string({ kind: "netlify", summary: deployOrigins }),
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
