import { problemAnchor, problems, type ProblemCode } from "./problems.ts";
import { pagePaths } from "../paths.ts";

export const problemContentType = "application/problem+json";

export interface ProblemOptions {
  /** The requested path (RFC 9457 `instance`). */
  instance: string;
  /** What went wrong in this request; defaults to the code's condition. */
  detail?: string;
  /** What to do next, when this case has something more specific than the code's general resolution. */
  resolution?: string;
  headers?: HeadersInit;
  /** Members beyond RFC 9457's, such as `errors` for invalid_brief. */
  extensions?: Record<string, unknown>;
}

/** The RFC 9457 body of a problem: `type` resolves to the code's entry on the developer page. */
export function problemBody(baseUrl: string, code: ProblemCode, { instance, detail, resolution, extensions }: ProblemOptions) {
  const definition = problems[code];
  const documentation = `${baseUrl}${pagePaths.developers}`;
  return {
    type: `${documentation}#${problemAnchor(code)}`,
    title: definition.title,
    status: definition.status,
    detail: detail ?? definition.condition,
    instance,
    code,
    resolution: resolution ?? definition.resolution,
    documentation_url: `${documentation}#errors`,
    ...extensions,
  };
}

export function problemResponse(baseUrl: string, code: ProblemCode, options: ProblemOptions): Response {
  const headers = new Headers(options.headers);
  headers.set("Content-Type", problemContentType);
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(problemBody(baseUrl, code, options), null, 2), { status: problems[code].status, headers });
}

/** The answer when the deployment itself is misconfigured (no Upstash, no URL): a 503 problem, never a stack trace. */
export function configurationProblem(request: Request): Response {
  const url = new URL(request.url);
  return problemResponse(url.origin, "service_unavailable", {
    instance: url.pathname,
    detail: "The service is not configured correctly; its operator has been alerted in the logs.",
    headers: { "Retry-After": "300", "Access-Control-Allow-Origin": "*" },
  });
}
