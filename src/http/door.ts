import { Hono } from "hono";
import { ConfigurationError } from "../config/env.ts";
import { lazy } from "../lazy.ts";
import type { DoorEnv, Handler } from "./context.ts";
import type { Format } from "./formats.ts";
import { asRefusal, Refusal } from "./refusal.ts";

/**
 * A door's Hono app: refusals thrown anywhere inside are answered in the door's own format, and so is anything
 * unexpected (logged with its stack, answered 503 with Retry-After, never a stack trace or a 500 page).
 */
export function door(format: Format, log: (line: string) => void = console.error): Hono<DoorEnv> {
  const app = new Hono<DoorEnv>();
  app.onError((error, c) => format(asRefusal(error, log, `${c.req.method} ${new URL(c.req.url).pathname}`), c));
  app.notFound((c) => format(new Refusal("not_found"), c));
  return app;
}

/** The app as a web-standard handler over the platform's context. */
export const handlerOf =
  (app: Hono<DoorEnv>): Handler =>
  (request, context) =>
    Promise.resolve(app.fetch(request, context));

/**
 * A door built on its first request (wiring from the environment, key import), then kept for the instance's life. A
 * ConfigurationError is answered in the door's format as `misconfigured` with one log line, and the next request tries
 * the configuration again.
 */
export function builtOnFirstUse(build: () => Promise<Handler>, format: Format, log: (line: string) => void = console.error): Handler {
  const built = lazy(build);
  const failing = door(format, log);
  failing.all("*", () => {
    throw new Refusal("misconfigured");
  });
  return async (request, context) => {
    try {
      return await (
        await built()
      )(request, context);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      log(`CONFIGURATION ERROR: ${error.message}`);
      return failing.fetch(request, context);
    }
  };
}
