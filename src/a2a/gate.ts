import { AgentCard } from "@a2a-js/sdk";
import { ServerCallContext, UnauthenticatedUser, type A2ARequestHandler } from "@a2a-js/sdk/server";
import { bookingSkillIds } from "../booking/names.ts";
import { identify, refuseInvalidToken, requireToken, type Verifier } from "../http/bearer.ts";
import type { MiddlewareHandler } from "hono";
import type { DoorContext, DoorEnv } from "../http/context.ts";
import { countAlso, quota } from "../http/quota.ts";
import { Refusal } from "../http/refusal.ts";
import type { Limiter } from "../limits/limiter.ts";
import { AuthenticatedCaller, decideRoute, setWaitUntil } from "./caller.ts";
import type { AgentCardJson } from "./card.ts";
import { messageProblem } from "./params.ts";
import { chooseSkill, viewOfJson, writeScope, type Route } from "./route.ts";

export interface A2AHandlerOptions {
  baseUrl: string;
  card: AgentCardJson;
  requestHandler: A2ARequestHandler;
  /** The shared token verifier; without it (the bench's bare handler) every call is anonymous. */
  verifier?: Verifier;
  /** The quota (per grant with a valid token, else per IP) and each grant's messages to the writes; without it, no count. */
  limiter?: Limiter;
  log?: (line: string) => void;
}

/** A call the gate admits apart: ListTasks (any token) and CancelTask (a write: svc:brief). */
export type TaskCall = "list" | "cancel";

/** What both bindings share in front of the SDK: the card it checks versions against, the middleware, and `admit`. */
export interface A2AGate {
  sdkCard: AgentCard;
  /** The token verified once, then the request counted against its grant, or the client IP without one. */
  middleware: MiddlewareHandler<DoorEnv>[];
  /** The call's context for the SDK; or a Refusal thrown for the message (invalid_params, content_type_not_supported), the token or the quota. */
  admit(c: DoorContext, version: string, message: unknown, call: TaskCall | undefined, messageAt?: string): Promise<ServerCallContext>;
}

export function a2aGate({ baseUrl, card, verifier, limiter, log = console.error }: A2AHandlerOptions): A2AGate {
  const sdkCard = AgentCard.fromJSON(card);
  // The skills routed to are the card's: the booking skills only where the card lists them.
  const offered = { booking: sdkCard.skills.some((s) => s.id === bookingSkillIds.book) };
  const middleware = [
    ...(verifier ? [identify(verifier)] : []),
    ...(limiter ? [quota(limiter, "a2a", { whenUnreachable: "serve", grants: { ceiling: "grants-per-address" }, log })] : []),
  ];

  /**
   * What both bindings check before the SDK sees a call: the message a send carries (decoded as the SDK will, so the
   * skill is decided once), the token (the writes need svc:brief; any token sent is checked), the per-grant count of
   * messages to the writes, which each store a task. `message` is undefined for a call that sends none; `call` marks
   * ListTasks and CancelTask (a write: it needs svc:brief too); `messageAt` names the message in a refusal
   * (`params.message` over JSON-RPC, `message` on HTTP+JSON).
   */
  async function admit(
    c: DoorContext,
    version: string,
    message: unknown,
    call?: TaskCall,
    messageAt = "params.message",
  ): Promise<ServerCallContext> {
    let route: Route | undefined;
    if (message !== undefined) {
      const problem = messageProblem(message, messageAt);
      if (problem) throw new Refusal("invalid_params", { detail: problem });
      const view = viewOfJson(message, version);
      if (!view) throw new Refusal("invalid_params", { detail: `${messageAt} with a parts array of valid parts is required.` });
      if (view.otherParts > 0 || view.texts.length + view.data.length === 0)
        throw new Refusal("content_type_not_supported", {
          detail: "Send text parts and data parts (application/json) only; files are not read.",
        });
      route = chooseSkill(view, offered);
    }
    const write = route?.kind === "task";
    // A grant lists only its own tasks, so an anonymous ListTasks is asked to authenticate (any valid token).
    const needsToken = write || call !== undefined;
    const where = { baseUrl, resource: "a2a" } as const;
    const caller = !verifier
      ? undefined
      : needsToken
        ? requireToken(c, { ...where, scopes: write || call === "cancel" ? [writeScope] : [] })
        : refuseInvalidToken(c, where);
    const user = caller && new AuthenticatedCaller(caller);
    // Every message to a write (the brief, booking, cancelling) stores a task, valid or not: each counts against the
    // caller's grant, and against its address's ceiling for every grant together.
    if (write && limiter && user) await countAlso(limiter, "a2a-briefs", c, { grant: user.grantId, ceiling: "a2a-briefs-per-address" });

    const context = new ServerCallContext({ user: user ?? new UnauthenticatedUser(), requestedVersion: version });
    if (route) decideRoute(context, route);
    setWaitUntil(context, (work) => c.env.waitUntil(work));
    return context;
  }

  return { sdkCard, middleware, admit };
}

export const requestHeaders = ["Authorization", "Content-Type", "A2A-Version", "A2A-Extensions", "X-A2A-Extensions"];

/** A2A 1.0 §3.6: the A2A-Version header (or query parameter); missing or empty means 0.3. */
export const requestedVersion = (c: DoorContext) => (c.req.header("a2a-version") ?? c.req.query("A2A-Version") ?? "").trim() || "0.3";
