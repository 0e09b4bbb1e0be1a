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

/** The HTTP gate decides the skill once, from its decoding of the message, and hands the decision to the executor. */
export const decideRoute = (context: ServerCallContext, route: Route) => context.state.set(routeKey, route);
export const decidedRoute = (context: ServerCallContext): Route | undefined => context.state.get(routeKey) as Route | undefined;
