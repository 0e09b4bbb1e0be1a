import type { HandlerContext } from "../../src/http/context.ts";

/** A stand-in for the platform behind the gateway: serves named files (after the .json rewrite) or 404. */
export function staticNext(files: Record<string, unknown>, ip = "203.0.113.10"): HandlerContext {
  return {
    ip,
    waitUntil: () => {},
    async next(request: Request) {
      const path = new URL(request.url).pathname;
      const file = files[path] ?? files[`${path}.json`];
      return file === undefined ? new Response("<html>404</html>", { status: 404 }) : Response.json(file);
    },
  };
}
