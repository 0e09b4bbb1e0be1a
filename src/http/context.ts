import type { Context } from "hono";
import type { QuotaResult } from "../limits/limiter.ts";
import type { AccessTokenCheck } from "../tokens/verify.ts";

/** What the platform tells every door about a request: the same for functions, edge functions and tests. */
export interface HandlerContext {
  /** The client's address as the platform saw the connection; never a request header. */
  ip: string;
  /** Runs work after the response has been sent (Netlify's context.waitUntil). */
  waitUntil(work: Promise<unknown>): void;
  /** Edge functions only: hands the request on to the platform (the static file or the function behind). */
  next?(request: Request): Promise<Response>;
}

/** A door: a web-standard handler. */
export type Handler = (request: Request, context: HandlerContext) => Promise<Response>;

/** What a door's middleware share through Hono's context. */
export interface DoorEnv {
  Bindings: HandlerContext;
  Variables: {
    /** The JSON-RPC id of the request being answered, once the body is read (JSON-RPC doors). */
    rpcId: string | number | null;
    /** Quotas counted inside the door beyond its own (countAlso), reported with it. */
    alsoCounted: QuotaResult[];
    /** The verdict on the request's Bearer token (set by `identify`; absent without an Authorization header). */
    token: AccessTokenCheck;
    /** Counts the request for the grant the door identified (set by `quotaOnceIdentified`; at most once). */
    charge: (grant: string, address?: string) => Promise<void>;
    /**
     * Starts the count of the door's quota for this request, at `cost` requests (one per JSON-RPC message it carries), and
     * sets `counted` (set by `quota` counting alongside; at most once a request).
     */
    weigh: (cost: number) => Promise<void>;
    /** Settles once the door's quota allowed this request, or fails with its refusal (set by `weigh`). */
    counted: Promise<void>;
  };
}

export type DoorContext = Context<DoorEnv>;

/** Sets headers on the door's response, whatever produced it (Hono keeps the new instance mutable). */
export function setHeaders(c: DoorContext, headers: Record<string, string>): void {
  c.res = new Response(c.res.body, c.res);
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
}
