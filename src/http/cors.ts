import { cors } from "hono/cors";
import type { MiddlewareHandler } from "hono";
import type { DoorContext, DoorEnv } from "./context.ts";

/**
 * Every header a cross-origin caller may need to read: the quota, the challenge, the validators, the lifecycle, and what a
 * write answers with (the new resource's Location, an Idempotency-Key replay).
 */
export const exposedHeaders = [
  "RateLimit",
  "RateLimit-Policy",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
  "WWW-Authenticate",
  "ETag",
  "Deprecation",
  "Sunset",
  "Link",
  "Location",
  "Idempotent-Replayed",
];

type Methods = readonly string[] | ((c: DoorContext) => readonly string[]);

/**
 * The one CORS policy of a public resource: any origin, no credentials, every response's quota and validators
 * readable, preflights answered (with the route's methods, also as Allow) and cached for a day. The doors that only
 * their own site's pages may call (/mcp, the consent screen, the contact form) have none.
 */
export function publicCors(allowMethods: Methods, allowHeaders: readonly string[]): MiddlewareHandler<DoorEnv> {
  const methodsOf = typeof allowMethods === "function" ? allowMethods : () => allowMethods;
  const withOptions = (c: DoorContext) => [...new Set([...methodsOf(c), "OPTIONS"])];
  const policy = cors({
    origin: "*",
    allowMethods: (_, c) => withOptions(c as DoorContext),
    allowHeaders: [...allowHeaders],
    exposeHeaders: exposedHeaders,
    maxAge: 86400,
  });
  return async (c, next) => {
    const preflight = await policy(c, next);
    preflight?.headers.set("Allow", withOptions(c).join(", "));
    return preflight;
  };
}

/** A read: GET and HEAD, conditionally (If-None-Match); a token may be sent and is not needed. */
export const readCors = (methods: Methods = ["GET", "HEAD"]) => publicCors(methods, ["Authorization", "If-None-Match"]);
