import type { Handler } from "../http/context.ts";
import { publicCors } from "../http/cors.ts";
import { door, handlerOf } from "../http/door.ts";
import { oauthJson, type Format } from "../http/formats.ts";
import { countAlso, quota, quotaOnceIdentified } from "../http/quota.ts";
import { refuseOtherMethods } from "../http/methods.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { oauthPaths, routeMethods } from "../paths.ts";
import { authorizationErrorPage, createAuthorizationHandler } from "./authorize.ts";
import { createRegistrationHandler } from "./register.ts";
import type { OAuthServerOptions } from "./server-options.ts";
import { createTokenHandler } from "./token.ts";

/**
 * The authorization server's refusals: RFC 6749-style JSON, except at /oauth/authorize, where the client and its
 * redirect URI are not trusted yet: there a refusal is a page, never a redirect (RFC 6749 §4.1.2.1).
 */
function oauthFormat(page: OAuthServerOptions["page"]): Format {
  const errorPage = authorizationErrorPage(page);
  return (refusal, c) => (c.req.path === oauthPaths.authorize ? errorPage : oauthJson)(refusal, c);
}

const otherMethods = (path: keyof typeof routeMethods) => refuseOtherMethods(routeMethods[path], `Use ${routeMethods[path].join(", ")}.`);

/**
 * The authorization server's endpoints, each request counted (preflights and wrong methods are not): registration and
 * the consent screen per client IP before they run, a token request for the grant or client it turns out to identify
 * (its IP when it identifies neither).
 */
export function createOAuthHandler(options: OAuthServerOptions): Handler {
  const { limiter } = options;
  const register = createRegistrationHandler(options);
  const token = createTokenHandler(options);
  const authorize = createAuthorizationHandler(options);
  const counted = (policy: "oauth" | "oauth-register") => quota(limiter, policy, { whenUnreachable: "refuse" });

  const app = door(oauthFormat(options.page));
  // Browser-based clients (an MCP inspector, a web app) call registration and token endpoints cross-origin.
  app.use(oauthPaths.register, publicCors(routeMethods[oauthPaths.register], ["Content-Type"]));
  app.use(oauthPaths.token, publicCors(routeMethods[oauthPaths.token], ["Content-Type"]));
  app.on(routeMethods[oauthPaths.register], oauthPaths.register, counted("oauth-register"), (c) => register(c.req.raw));
  app.all(oauthPaths.register, otherMethods(oauthPaths.register));
  app.on(
    routeMethods[oauthPaths.token],
    oauthPaths.token,
    quotaOnceIdentified(limiter, "oauth-token", { whenUnreachable: "refuse", grants: { ceiling: "grants-per-address" } }),
    (c) => token(c.req.raw, { count: (policy) => countAlso(limiter, policy, c), charge: c.get("charge") }),
  );
  app.all(oauthPaths.token, otherMethods(oauthPaths.token));
  app.on(routeMethods[oauthPaths.authorize], oauthPaths.authorize, counted("oauth"));
  // The person's decision comes only from the consent page this server showed.
  app.post(
    oauthPaths.authorize,
    sameOrigin([new URL(options.baseUrl).origin], { pageRequired: true, detail: "The form was not sent from this site." }),
  );
  app.on(routeMethods[oauthPaths.authorize], oauthPaths.authorize, (c) =>
    authorize(c.req.raw, (policy) => countAlso(limiter, policy, c), c.env.ip),
  );
  app.all(oauthPaths.authorize, otherMethods(oauthPaths.authorize));
  return handlerOf(app);
}
