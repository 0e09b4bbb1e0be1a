import { settingsFrom } from "../../src/config/settings.ts";
import { afterAll, beforeAll } from "vitest";
import { builtAgentCard } from "../../src/a2a/build-card.ts";
import { a2aHandlerFromEnv } from "../../src/a2a/from-env.ts";
import { apiGatewayFromEnv } from "../../src/api/from-env.ts";
import { openApiDocument } from "../../src/api/openapi.ts";
import { deliveryFromEnv } from "../../src/briefs/delivery-config.ts";
import { briefsHandlerFromEnv } from "../../src/api/briefs-from-env.ts";
import { LeadStore } from "../../src/briefs/store.ts";
import { contactHandlerFromEnv } from "../../src/contact/from-env.ts";
import { serverCard } from "../../src/mcp/card.ts";
import { mcpHandlerFromEnv } from "../../src/mcp/from-env.ts";
import { issueAccessToken } from "../../src/oauth/access-token.ts";
import { clientGrantId } from "../../src/oauth/grants.ts";
import { discoveryDocuments } from "../../src/tokens/metadata.ts";
import { jwksHandlerFromEnv } from "../../src/oauth/jwks-from-env.ts";
import { generateKeySet, importSigningKeys, signingKeysVariable } from "../../src/tokens/keys.ts";
import { oauthHandlerFromEnv } from "../../src/oauth/from-env.ts";
import { prebuiltResources, type PrebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite, type Site } from "../../src/site/model.ts";
import { skillFiles } from "../../src/discovery/skills/files.ts";
import { skillsIndex } from "../../src/discovery/skills/index.ts";

import {
  a2aPath,
  agentCardPath,
  apiBase,
  briefsPath,
  bookingsPath,
  freeTimesPath,
  caseStudyResourcePath,
  mcpPath,
  oauthBase,
  oauthPaths,
  openApiPath,
  pagePaths,
  resourcePaths,
  skillsIndexPath,
  skillsPath,
} from "../../src/paths.ts";
import { installClock, type TestClock } from "./clock.ts";
import { patientDeadlines, testLimit } from "./patience.ts";
import { loadContentDir } from "./content.ts";
import { startFaultFront } from "./fault-front.ts";
import { startPostmarkStandIn, type PostmarkStandIn } from "./postmark-standin.ts";
import { startCalStandIn, type CalStandIn } from "../../scripts/local-calcom/standin.ts";
import { bookingHandlerFromEnv } from "../../src/api/bookings-from-env.ts";
import { startStore } from "./file-store.ts";
import { nodeRedis } from "./node-redis.ts";

export const base = "https://studio.example";

const content = new Map<string, Promise<Site>>();
/** The site model as the build makes it from content/ for `baseUrl` (with booking offered to agents, as where Cal.com is configured, unless told otherwise). */
export function builtSite(baseUrl = base, { agentBooking = true } = {}): Promise<Site> {
  const key = `${baseUrl} ${agentBooking}`;
  let site = content.get(key);
  if (!site) content.set(key, (site = loadContentDir("content").then((raw) => buildSite(raw, baseUrl, { agentBooking }))));
  return site;
}

/** The prebuilt resources the functions bundle, made as the build makes them. */
export const prebuilt = async (baseUrl = base, options: { agentBooking?: boolean } = {}): Promise<PrebuiltResources> =>
  prebuiltResources(await builtSite(baseUrl, options));

/**
 * What the build writes from one site model, made once for it: every deployment of a file (and every file of a worker)
 * on the same base URL serves the same files.
 */
const builtFrom = new WeakMap<Site, { skills: Record<string, string>; files: Record<string, unknown> }>();
function built(site: Site, resources: PrebuiltResources) {
  let made = builtFrom.get(site);
  if (!made) builtFrom.set(site, (made = { skills: skillFiles(site), files: apiFiles(site, resources) }));
  return made;
}

/** The files the platform serves behind the /api gateway (after the `.json` rewrite): every read resource, and the OpenAPI document. */
function apiFiles(site: Site, resources: PrebuiltResources): Record<string, unknown> {
  const files: Record<string, unknown> = { [openApiPath]: openApiDocument(site) };
  for (const [id, path] of Object.entries(resourcePaths)) files[path] = resources[id as keyof typeof resourcePaths];
  for (const [id, study] of Object.entries(resources.case_study_details)) files[caseStudyResourcePath(id)] = study;
  return files;
}

export interface DeploymentOptions {
  /** The public base URL (`URL`); a local one (http://localhost:...) allows what only a local site allows. */
  baseUrl?: string;
  /** More variables, as a site's configuration sets them. */
  env?: Record<string, string>;
  /** The variables the build saw, where they differ from `env` (a deploy whose Builds and Functions scopes differ). */
  buildEnv?: Record<string, string>;
}

/**
 * Every function of the site, built from an environment exactly as the Netlify adapters in functions/ build them, in
 * one process: the /api edge gateway (with POST /api/v1/briefs behind it), the contact form, /mcp, /a2a/v1, the key set and the
 * OAuth endpoints. Each call names the client address the platform would hand the function (a new one unless given),
 * so quotas count only where a test means them to. Upstash and Postmark are reached through fault fronts, so a test
 * can take either down, slow it or break it, and every handler instance keeps running through the fault and after it.
 */
export async function startDeployment(db: number | "local", { baseUrl = base, env: extra = {}, buildEnv = extra }: DeploymentOptions = {}) {
  const store = await startStore(db);
  const upstash = await startFaultFront(store.url);
  const postmark: PostmarkStandIn = await startPostmarkStandIn("postmark-test-token", 1_500);
  const mail = await startFaultFront(postmark.url);
  // The build knows whether agents can book: not where the test unsets Cal.com's event type.
  const site = await builtSite(baseUrl, { agentBooking: buildEnv.CAL_EVENT_TYPE_ID !== "" });
  const resources = prebuiltResources(site);
  // The skills' files, as functions/mcp.ts bundles them (prebuilt-skills.json), and the files behind the /api gateway.
  const { skills, files } = built(site, resources);
  const { hours, booking: call } = resources.contact;
  // Cal.com's API, as the local runtime stands it in: the studio's hours, and a late answer held past any client's wait
  // (until the test releases it, or the deployment closes).
  const cal: CalStandIn = await startCalStandIn({
    eventTypeId: 1,
    lengthMinutes: call.duration_minutes,
    hours: { time_zone: hours.time_zone, days: hours.days as never, opens: hours.opens, closes: hours.closes },
    apiKey: "cal_test_key",
    timeoutMs: testLimit,
  });
  const keySet = await generateKeySet();
  const keys = await importSigningKeys(JSON.stringify(keySet));
  const variables: Record<string, string> = {
    URL: baseUrl,
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: store.token,
    OAUTH_SIGNING_KEYS: JSON.stringify(keySet),
    POSTMARK_SERVER_TOKEN: postmark.token,
    POSTMARK_API_URL: mail.url,
    LEADS_TO: "leads@studio.example",
    LEADS_FROM: "Website <website@studio.example>",
    CAL_EVENT_TYPE_ID: "1",
    CAL_API_KEY: cal.apiKey,
    CAL_API_URL: cal.url,
    // A test that means a deadline to be reached sets a short one, and its fault holds the answer until the client gives up.
    ...patientDeadlines,
    ...extra,
  };
  // An empty value unsets a variable (a deployment without booking, say).
  const env = (name: string) => variables[name] || undefined;
  // The OAuth discovery documents, prebuilt files the platform serves (netlify.toml rewrites each path to its .json).
  const documents = discoveryDocuments(baseUrl);
  // The agent card, which the build signs and publishes as a static file.
  let agentCard: Promise<unknown> | undefined;
  const signedAgentCard = () =>
    (agentCard ??= builtAgentCard(baseUrl, resources, { [signingKeysVariable]: variables[signingKeysVariable] }, () => {}));

  // Work the platform runs after a response (context.waitUntil): kept so tests can wait for it.
  const pending: Promise<unknown>[] = [];
  const waitUntil = (work: Promise<unknown>) => void pending.push(work);
  const from = (ip: string) => ({ ip, waitUntil });

  const briefs = briefsHandlerFromEnv(env, resources);
  const bookings = bookingHandlerFromEnv(env, resources);
  const gateway = apiGatewayFromEnv(env);
  const contact = contactHandlerFromEnv(env, resources);
  const mcp = mcpHandlerFromEnv(env, resources, serverCard(resources), skills);
  const a2a = a2aHandlerFromEnv(env, resources);
  const oauth = oauthHandlerFromEnv(env);
  const jwks = jwksHandlerFromEnv(env);

  /** The platform behind the gateway: the briefs function for the write (for the same client), the prebuilt files for reads. */
  const platform = async (request: Request, ip: string) => {
    const path = new URL(request.url).pathname;
    if (path === briefsPath) return briefs(request, from(ip));
    if (path === freeTimesPath || path === bookingsPath || path.startsWith(`${bookingsPath}/`)) return bookings(request, from(ip));
    const file = files[path];
    return file === undefined ? new Response("<html>404</html>", { status: 404 }) : Response.json(file);
  };

  let counter = 0;
  const nextIp = () => `10.${(++counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
  /** A request as the platform hands it to a function: an absolute URL and the Host header the client sent. */
  const at = (path: string, init?: RequestInit) => {
    const request = new Request(`${baseUrl}${path}`, init);
    request.headers.set("host", new URL(baseUrl).host);
    return request;
  };

  /** A request as it reaches the platform, routed to its function as netlify.toml and functions/ route it. */
  const route = (request: Request, ip: string): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const at = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
    if (at(apiBase)) return gateway(request, { ...from(ip), next: (r) => platform(r, ip) });
    if (at(mcpPath)) return mcp(request, from(ip));
    if (at(a2aPath)) return a2a(request, from(ip));
    if (at(oauthBase)) return oauth(request, from(ip));
    if (path === oauthPaths.jwks) return jwks(request, from(ip));
    // The contact page is static; only its form's POST reaches the function.
    if (path === pagePaths.contact && request.method === "POST") return contact(request, from(ip));
    if (Object.hasOwn(documents, path)) return Promise.resolve(Response.json(documents[path]));
    if (path === agentCardPath) return signedAgentCard().then((card) => Response.json(card));
    // The skills' index and files, static files the build writes.
    if (path === skillsIndexPath) return skillsIndex(site).then((index) => Response.json(index));
    const skillFile = path.startsWith(`${skillsPath}/`) ? skills[path.slice(skillsPath.length + 1)] : undefined;
    if (skillFile !== undefined) return Promise.resolve(new Response(skillFile));
    return Promise.resolve(new Response("<html>404</html>", { status: 404 }));
  };

  return {
    baseUrl,
    env,
    store,
    upstash,
    postmark,
    mail,
    /** The Cal.com stand-in: its bookings, and faults for the next calls. */
    cal,
    site,
    resources,
    /** Every skill's files by `<name>/<path>`, as the build writes them under /.well-known/agent-skills/. */
    skills,
    /** The lead store and the delivery job's dependencies, as functions/deliver-leads.ts builds them each minute. */
    leads: new LeadStore(nodeRedis(store)),
    deliveryJob: () => deliveryFromEnv(settingsFrom(env), resources),
    /** Waits for the work handlers left running after their responses. */
    settle: async () => {
      while (pending.length > 0) await Promise.allSettled(pending.splice(0));
    },
    /**
     * A token as the token endpoint issues one: a new client's unless one is given, and that client's own grant (as for
     * client_credentials) unless another is given (a person's consent: `consentGrantId()`).
     */
    token: async (scope = "svc:read svc:brief", clientId = `client-${crypto.randomUUID()}`, grantId = clientGrantId(clientId)) =>
      (await issueAccessToken(keys, baseUrl, { clientId, grantId, scope, audience: baseUrl }, Date.now())).access_token,
    nextIp,
    // Each call comes from a new client address unless one is given, so quotas only count where a test means them to.
    api: (path: string, init?: RequestInit, ip = nextIp()) => gateway(at(path, init), { ...from(ip), next: (r) => platform(r, ip) }),
    /** A post of the contact form, from this site's page (its Origin) unless the test names an Origin or a Referer. */
    contact: (init: RequestInit, ip = nextIp()) => {
      const request = at("/contact", init);
      if (!request.headers.has("origin") && !request.headers.has("referer")) request.headers.set("origin", new URL(baseUrl).origin);
      return contact(request, from(ip));
    },
    mcp: (init: RequestInit, ip = nextIp(), path = "/mcp") => mcp(at(path, init), from(ip)),
    a2a: (init: RequestInit, ip = nextIp(), path = "/a2a/v1") => a2a(at(path, init), from(ip)),
    oauth: (path: string, init?: RequestInit, ip = nextIp()) => oauth(at(path, init), from(ip)),
    /** Any request, as it arrives (its own URL and Host header), to the function that serves its path: for serving over HTTP. */
    serve: (request: Request, ip = nextIp()) => route(request, ip),
    /** A client's `fetch` from one address: each request reaches the function (or document) that serves its path. */
    fetchFrom:
      (ip = nextIp()): typeof fetch =>
      async (input, init) => {
        const request = new Request(input, init);
        request.headers.set("host", new URL(request.url).host);
        return route(request, ip);
      },
    async close() {
      await mail.close();
      await postmark.close();
      await cal.close();
      await upstash.close();
      await store.close();
    },
  };
}

export type Deployment = Awaited<ReturnType<typeof startDeployment>>;

/**
 * The deployment of a whole test file, on the test clock when `clock` is set (installed first, so what the handlers
 * build reads it): started before the file's tests, its background work settled and everything closed after them.
 * Both are used inside tests and hooks, once started.
 */
export function fileDeployment(db: number | "local", { clock: onClock = false, ...options }: DeploymentOptions & { clock?: boolean } = {}) {
  let deployment: Deployment | undefined;
  let clock: TestClock | undefined;
  beforeAll(async () => {
    if (onClock) clock = installClock();
    deployment = await startDeployment(db, options);
  });
  afterAll(async () => {
    await deployment?.settle();
    await deployment?.close();
    clock?.restore();
  });
  return { d: startedOnly(() => deployment), clock: startedOnly(() => clock) };
}

/** An object that stands for one made later (in a hook), and says so when it is used before. */
function startedOnly<T extends object>(current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      if (!target) throw new Error("used before the file's beforeAll started it");
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
