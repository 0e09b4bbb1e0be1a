import { cors } from "hono/cors";
import type { MiddlewareHandler } from "hono";
import type { DoorEnv } from "./context.ts";

/** Every header a cross-origin caller may need to read: the quota, the challenge, the validators, the lifecycle. */
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
];

/** CORS for a public door: any origin, no credentials, preflights answered and cached for a day. */
export const publicCors = (allowMethods: string[], allowHeaders: string[]): MiddlewareHandler<DoorEnv> =>
  cors({ origin: "*", allowMethods, allowHeaders, exposeHeaders: exposedHeaders, maxAge: 86400 });
