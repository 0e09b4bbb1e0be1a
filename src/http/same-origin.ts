import type { MiddlewareHandler } from "hono";
import type { DoorEnv } from "./context.ts";
import { Refusal } from "./refusal.ts";

/**
 * Whether a request comes from one of `allowed` origins, by what a browser says of it: its `Origin`, which browsers send
 * with every cross-origin request and every form POST. A request without one is not from a browser page and passes,
 * unless `pageRequired` (a form only a page of the site may send): then the page named by `Referer`, which old browsers
 * send instead under the site's referrer policy, must be one of them.
 */
export function fromAllowedOrigin(request: Request, allowed: readonly string[], { pageRequired = false } = {}): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) return allowed.includes(origin);
  if (!pageRequired) return true;
  const referer = request.headers.get("referer");
  return referer !== null && URL.canParse(referer) && allowed.includes(new URL(referer).origin);
}

export interface SameOriginOptions {
  /** Only a page of the site may send it (a form): a request with neither Origin nor such a Referer is refused too. */
  pageRequired?: boolean;
  /** What the refusal says, where the door has better words than the header's value. */
  detail?: string;
}

/** Refuses (forbidden_origin) a request that a page of another site sent, as `fromAllowedOrigin` decides. */
export const sameOrigin =
  (allowed: readonly string[], { pageRequired = false, detail }: SameOriginOptions = {}): MiddlewareHandler<DoorEnv> =>
  async (c, next) => {
    if (!fromAllowedOrigin(c.req.raw, allowed, { pageRequired })) {
      const origin = c.req.header("origin");
      throw new Refusal("forbidden_origin", {
        detail:
          detail ?? (origin === undefined ? "The request was not sent from a page of this site." : `Origin ${origin} is not allowed.`),
      });
    }
    await next();
  };
