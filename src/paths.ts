/**
 * Every URL path the site, the functions and the discovery documents use, in one leaf module: it imports nothing,
 * so anything may import it without making a cycle. netlify.toml and the functions' `config.path` must repeat some of
 * these as literals (Netlify reads them statically); tests/unit/paths.test.ts holds them to this module.
 */

/** The pages of the site. Paths are fixed by the code, not the content, so links never break silently. */
export const pagePaths = {
  home: "/",
  services: "/services",
  offers: "/offers",
  work: "/work",
  contact: "/contact",
  developers: "/developers",
} as const;

export type PageId = keyof typeof pagePaths;

/**
 * The developer guide: its index is the developers page, and each subject has a page below it. A section of
 * content/developers/ names its page in its front matter.
 */
export const guidePagePaths = {
  index: pagePaths.developers,
  api: `${pagePaths.developers}/api`,
  oauth: `${pagePaths.developers}/oauth`,
  briefs: `${pagePaths.developers}/briefs`,
  booking: `${pagePaths.developers}/booking`,
  mcp: `${pagePaths.developers}/mcp`,
  a2a: `${pagePaths.developers}/a2a`,
} as const;

export type GuidePageId = keyof typeof guidePagePaths;
/** The guide's pages below its index, in the order the index lists them. */
export type GuideSubject = Exclude<GuidePageId, "index">;
export const guideSubjects = Object.keys(guidePagePaths).filter((id) => id !== "index") as GuideSubject[];

/** The page shown for unknown paths; it has a Markdown twin but is not indexable. */
export const notFoundPath = "/404";

export const caseStudyPath = (id: string) => `${pagePaths.work}/${id}`;

/** The Markdown twin of a page: `/` -> `/index.md`, `/work/x` -> `/work/x.md`. */
export const markdownPath = (path: string) => (path === "/" ? "/index.md" : `${path.replace(/\/+$/, "")}.md`);

/** The REST API: the JSON read resources, the one write, and the OpenAPI document. */
export const apiBase = "/api/v1";
export const resourcePaths = {
  index: apiBase,
  company: `${apiBase}/company`,
  offers: `${apiBase}/offers`,
  "case-studies": `${apiBase}/case-studies`,
  pages: `${apiBase}/pages`,
  contact: `${apiBase}/contact`,
} as const;

export const caseStudyResourcePath = (id: string) => `${resourcePaths["case-studies"]}/${id}`;
export const briefsPath = `${apiBase}/briefs`;
/** The intro call: free times (a read answered by a function) and bookings. */
export const freeTimesPath = `${apiBase}/free-times`;
export const bookingsPath = `${apiBase}/bookings`;
export const openApiPath = `${apiBase}/openapi.json`;

/** The authorization server. */
export const oauthBase = "/oauth";
export const oauthPaths = {
  authorize: `${oauthBase}/authorize`,
  token: `${oauthBase}/token`,
  register: `${oauthBase}/register`,
  jwks: "/.well-known/jwks.json",
  authorizationServerMetadata: "/.well-known/oauth-authorization-server",
} as const;

/** The MCP server, and its card: SEP-2127's location beside the endpoint, and the well-known one scanners probe. */
export const mcpPath = "/mcp";
export const serverCardPath = `${mcpPath}/server-card`;
export const serverCardWellKnownPath = "/.well-known/mcp/server-card.json";
/** The MCP Registry: the server.json a fork publishes, and the proof of the domain its HTTP login fetches (no redirect). */
export const registryServerJsonPath = "/.well-known/mcp/server.json";
export const registryAuthPath = "/.well-known/mcp-registry-auth";

/** The A2A agent and its card. */
export const a2aPath = "/a2a/v1";
/** The HTTP+JSON (REST) binding of the same agent: a path below the JSON-RPC endpoint, so one protected resource. */
export const a2aRestPath = `${a2aPath}/rest`;
export const agentCardPath = "/.well-known/agent-card.json";

/**
 * The methods each door's route is registered with: the door routes them and names them in its 405's Allow, and npm
 * start's front names them too. HEAD is listed wherever GET is (RFC 9110 §9.3.2; Hono answers it as the GET without the
 * body); OPTIONS, where a door has CORS, is answered by it.
 */
export const routeMethods = {
  [oauthPaths.register]: ["POST", "OPTIONS"],
  [oauthPaths.token]: ["POST", "OPTIONS"],
  [oauthPaths.authorize]: ["GET", "HEAD", "POST"],
  [oauthPaths.jwks]: ["GET", "HEAD"],
  [mcpPath]: ["POST"],
  [serverCardPath]: ["GET", "HEAD", "OPTIONS"],
  [a2aPath]: ["POST", "OPTIONS"],
  /** Every path under it. */
  [a2aRestPath]: ["GET", "HEAD", "POST", "OPTIONS"],
} satisfies Record<string, string[]>;

/** The protected resources (RFC 8707 resource indicators) by their path below the base URL; "" is the origin. */
export const protectedResourcePaths = { origin: "", mcp: mcpPath, a2a: a2aPath } as const;
export type ProtectedResource = keyof typeof protectedResourcePaths;

/** RFC 9728 §3.1: the well-known segment goes between the host and the resource's path. */
export const protectedResourceMetadataPath = (resource: ProtectedResource) =>
  `/.well-known/oauth-protected-resource${protectedResourcePaths[resource]}`;

/** Site-level discovery. */
export const apiCatalogPath = "/.well-known/api-catalog";
export const aiCatalogPath = "/.well-known/ai-catalog.json";
/** The skills' folder: each skill's files under `<name>/`, and the index. */
export const skillsPath = "/.well-known/agent-skills";
export const skillsIndexPath = `${skillsPath}/index.json`;
export const skillPath = (name: string, file = "SKILL.md") => `${skillsPath}/${name}/${file}`;
export const llmsPath = "/llms.txt";
export const llmsFullPath = "/llms-full.txt";
export const robotsPath = "/robots.txt";
export const sitemapPath = "/sitemap.xml";

/**
 * Files a build leaves in the publish folder for Netlify, which reads them and serves none (a request for one finds no
 * file): the build writes `_headers` (src/pages/[netlifyFile].ts); netlify.toml holds the redirects.
 */
export const platformFiles = { headers: "/_headers", redirects: "/_redirects" } as const;

/** The scheduled lead delivery job, as netlify dev exposes it (the local runtime calls it every minute). */
export const deliverLeadsFunctionPath = "/.netlify/functions/deliver-leads";

/** Joins a site path onto the base URL, keeping the base URL's own path if it has one. */
export const absolute = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, "")}${path}`;

/** A page of the developer guide, or a place on it: `guideUrl(base, "mcp", "mcp-errors")` is /developers/mcp#mcp-errors. */
export const guideUrl = (baseUrl: string, page: GuidePageId, anchor?: string) =>
  `${absolute(baseUrl, guidePagePaths[page])}${anchor ? `#${anchor}` : ""}`;

/** The developer guide's page on booking the intro call. */
export const agentBookingGuide = (baseUrl: string | { baseUrl: string }) =>
  guideUrl(typeof baseUrl === "string" ? baseUrl : baseUrl.baseUrl, "booking");
