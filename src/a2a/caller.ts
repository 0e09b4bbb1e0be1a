import type { ServerCallContext, User } from "@a2a-js/sdk/server";
import type { Caller } from "../http/bearer.ts";
import type { Route } from "./route.ts";

/**
 * The caller a valid token names: its client, its grant and its scopes. The SDK scopes what a user owns by `userName`,
 * so that is the grant: tasks belong to the person's grant, never to a client_id others can also get tokens for.
 */
export class AuthenticatedCaller implements User {
  readonly clientId: string;
  readonly grantId: string;
  readonly scopes: readonly string[];
  /** The grant's address (`Caller.address`): its briefs and bookings count against its ceilings. */
  readonly address: string;
  constructor({ clientId, grantId, scopes, address }: Omit<Caller, "token">) {
    this.clientId = clientId;
    this.grantId = grantId;
    this.scopes = scopes;
    this.address = address;
  }
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.grantId;
  }
}

/** The scopes of the call's caller; none for an anonymous call. */
export const scopesOf = (context: ServerCallContext): readonly string[] =>
  context.user instanceof AuthenticatedCaller ? context.user.scopes : [];

const routeKey = "frontdoor.route";
const waitUntilKey = "frontdoor.waitUntil";
const storeFailedKey = "frontdoor.storeFailed";

/** The HTTP gate decides the skill once, from its decoding of the message, and hands the decision to the executor. */
export const decideRoute = (context: ServerCallContext, route: Route) => context.state.set(routeKey, route);
export const decidedRoute = (context: ServerCallContext): Route | undefined => context.state.get(routeKey) as Route | undefined;

/** The request's waitUntil, for the brief's first e-mail attempt. */
export const setWaitUntil = (context: ServerCallContext, waitUntil: (work: Promise<unknown>) => void) =>
  context.state.set(waitUntilKey, waitUntil);
export const waitUntilOf = (context: ServerCallContext) =>
  context.state.get(waitUntilKey) as ((work: Promise<unknown>) => void) | undefined;

/**
 * The task store could not be reached during this call. The SDK turns any error into a JSON-RPC internal error, so the
 * store marks the call instead, and the HTTP layer answers service_unavailable (503) from the mark, never from a message.
 */
export const markStoreFailed = (context: ServerCallContext) => context.state.set(storeFailedKey, true);
export const storeFailed = (context: ServerCallContext) => context.state.get(storeFailedKey) === true;
