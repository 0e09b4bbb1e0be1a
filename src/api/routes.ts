import { bookingIdPattern } from "../booking/store.ts";
import { apiBase, resourcePaths, openApiPath, briefsPath, bookingsPath, freeTimesPath } from "../paths.ts";

/**
 * Every path under /api that exists, and its methods. Reads are prebuilt JSON files that the platform serves
 * behind the gateway (netlify.toml rewrites `/api/v1/x` to `/api/v1/x.json`); writes go to functions.
 */
export interface ApiRoute {
  /** An exact path, or a pattern with one `:id` segment. */
  path: string;
  /** What an `:id` segment may be; a case study's slug by default. */
  id?: RegExp;
  /** The methods this resource really supports, as the Allow header lists them. */
  methods: readonly string[];
  kind: "read" | "function";
}

const read = ["GET", "HEAD", "OPTIONS"] as const;

export const apiRoutes: readonly ApiRoute[] = [
  ...Object.values(resourcePaths).map((path) => ({ path, methods: read, kind: "read" as const })),
  { path: `${resourcePaths["case-studies"]}/:id`, methods: read, kind: "read" },
  { path: openApiPath, methods: read, kind: "read" },
  { path: briefsPath, methods: ["POST", "OPTIONS"], kind: "function" },
  { path: freeTimesPath, methods: read, kind: "function" },
  { path: bookingsPath, methods: ["POST", "OPTIONS"], kind: "function" },
  { path: `${bookingsPath}/:id`, id: bookingIdPattern, methods: read, kind: "function" },
  { path: `${bookingsPath}/:id/cancel`, id: bookingIdPattern, methods: ["POST", "OPTIONS"], kind: "function" },
];

const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The route a path names; `/api/v1/case-studies/x` matches the pattern, whether or not x exists. */
export function matchRoute(pathname: string): ApiRoute | undefined {
  return apiRoutes.find((route) => {
    if (!route.path.includes(":id")) return route.path === pathname;
    const [prefix, suffix] = route.path.split(":id") as [string, string];
    if (!pathname.startsWith(prefix) || !pathname.endsWith(suffix)) return false;
    return (route.id ?? slug).test(pathname.slice(prefix.length, pathname.length - suffix.length));
  });
}
