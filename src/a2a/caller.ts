import type { ServerCallContext, User } from "@a2a-js/sdk/server";
import type { Route } from "./route.ts";

/** The OAuth client a call is authenticated as, with the scopes its token grants. */
export class AuthenticatedClient implements User {
  readonly clientId: string;
  readonly scopes: readonly string[];
  constructor(clientId: string, scopes: readonly string[]) {
    this.clientId = clientId;
    this.scopes = scopes;
  }
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.clientId;
  }
}

/** The scopes of the call's client; none for an anonymous call. */
export const scopesOf = (context: ServerCallContext): readonly string[] =>
  context.user instanceof AuthenticatedClient ? context.user.scopes : [];

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
