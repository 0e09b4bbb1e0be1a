import { ConfigurationError } from "./env.ts";

/**
 * A function's handler, built from the environment once per instance. When the deployment is misconfigured (a
 * ConfigurationError: no Upstash, no keys, no URL), `misconfigured` answers in the protocol's own format, the
 * operator reads one clear log line, and the next request tries the configuration again.
 */
export function builtOnce<C>(
  build: () => Promise<(request: Request, context: C) => Promise<Response>>,
  misconfigured: (request: Request, error: ConfigurationError) => Response,
): (request: Request, context: C) => Promise<Response> {
  let built: ReturnType<typeof build> | undefined;
  return async (request, context) => {
    try {
      built ??= build();
      const handler = await built;
      return await handler(request, context);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      built = undefined;
      console.error(`CONFIGURATION ERROR: ${error.message}`);
      return misconfigured(request, error);
    }
  };
}
