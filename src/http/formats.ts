import { absolute, pagePaths } from "../paths.ts";
import { conditions, type Condition } from "./conditions.ts";
import type { DoorContext } from "./context.ts";
import type { Refusal } from "./refusal.ts";

/** Renders a refusal in a door's own protocol. */
export type Format = (refusal: Refusal, c: DoorContext) => Response;

const noStore = { "Cache-Control": "no-store" };
const definition = (refusal: Refusal): Condition => conditions[refusal.condition];

/** When to retry, in seconds: what the refusal knows (a quota's reset, Cal.com's ask), else its condition's default. */
export function retryAfterOf(refusal: Refusal): number | undefined {
  const seconds = Number(refusal.options.headers?.["Retry-After"] ?? definition(refusal).retryAfterSeconds);
  return seconds > 0 ? seconds : undefined;
}

/** A refusal's own headers, and its Retry-After. */
export function refusalHeaders(refusal: Refusal): Record<string, string> {
  const retryAfter = retryAfterOf(refusal);
  return { ...refusal.options.headers, ...(retryAfter ? { "Retry-After": String(retryAfter) } : {}) };
}

/**
 * What a refusal carries as data where an agent reads it in a result (an MCP tool error, an A2A message or task): the
 * REST problem's code, its members (field errors, fresh free times) and, as REST's Retry-After, `retry_after`.
 */
export function refusalData(refusal: Refusal): Record<string, unknown> {
  const retryAfter = retryAfterOf(refusal);
  return {
    code: definition(refusal).problem ?? refusal.condition,
    ...refusal.options.extensions,
    ...(retryAfter ? { retry_after: retryAfter } : {}),
  };
}

/** The developer page's entry for a REST problem code: `invalid_brief` -> `error-invalid-brief`. */
export const problemAnchor = (code: string) => `error-${code.replaceAll("_", "-")}`;
export const problemContentType = "application/problem+json";

/** RFC 9457 under /api: `type` resolves to the code's entry on the developer page; `instance` is the requested path. */
export const problemJson =
  (baseUrl: string): Format =>
  (refusal, c) => {
    const condition = definition(refusal);
    const code = condition.problem ?? "service_unavailable";
    const documentation = absolute(baseUrl, pagePaths.developers);
    const { detail, resolution, extensions } = refusal.options;
    const body = {
      type: `${documentation}#${problemAnchor(code)}`,
      title: condition.title,
      status: condition.status,
      detail: detail ?? condition.when,
      instance: new URL(c.req.url).pathname,
      code,
      resolution: resolution ?? condition.resolution,
      documentation_url: `${documentation}#errors`,
      ...extensions,
    };
    return new Response(JSON.stringify(body, null, 2), {
      status: condition.status,
      headers: { ...refusalHeaders(refusal), ...noStore, "Content-Type": problemContentType },
    });
  };

/** problem+json where the base URL is not known (a misconfigured deployment): the request's own origin. */
export const problemJsonAtOrigin: Format = (refusal, c) => problemJson(new URL(c.req.url).origin)(refusal, c);

/** RFC 6749 §5.2 (and RFC 7591, RFC 6750 where they apply): `{ error, error_description }`, never cached. */
export const oauthJson: Format = (refusal) => {
  const condition = definition(refusal);
  const body = { error: condition.oauth ?? "invalid_request", error_description: refusal.options.detail ?? condition.when };
  return Response.json(body, { status: condition.status, headers: { ...refusalHeaders(refusal), ...noStore, Pragma: "no-cache" } });
};

export interface JsonRpcFormatOptions {
  /** What each protocol carries beside the number (MCP: our code and its documentation; A2A: an ErrorInfo). */
  data: (name: Refusal["condition"], condition: Condition) => unknown;
  /**
   * The numbers answered with HTTP 200: errors in the message itself rather than in the HTTP exchange, as A2A's JSON-RPC
   * binding answers them. MCP's Streamable HTTP answers every error with the condition's status.
   */
  answeredWith200?: ReadonlySet<number>;
}

/** A JSON-RPC error answering the request's id (null until the body was read), with the HTTP status of the condition. */
export const jsonRpc =
  ({ data, answeredWith200 }: JsonRpcFormatOptions): Format =>
  (refusal, c) => {
    const condition = definition(refusal);
    const id = c.get("rpcId") ?? null;
    const error = {
      // Internal error: only OAuth's own rows have no number, and they are never refused here.
      code: condition.rpc ?? -32603,
      message: `${condition.title}: ${refusal.options.detail ?? condition.when}`,
      data: data(refusal.condition, condition),
    };
    const status = answeredWith200?.has(error.code) ? 200 : condition.status;
    return Response.json({ jsonrpc: "2.0", id, error }, { status, headers: { ...refusalHeaders(refusal), ...noStore } });
  };

export interface GoogleRpcStatusOptions {
  /** The ErrorInfo `domain` naming who defines a condition's reason (A2A: the protocol's, or the service's own). */
  domain: (name: Refusal["condition"]) => string;
  /** The Content-Type of an error body (A2A 1.0.1: application/a2a+json). */
  contentType: string;
}

/**
 * A google.rpc.Status in the AIP-193 shape, as A2A's HTTP+JSON binding answers errors:
 * `{ error: { code: <http status>, status: <google.rpc.Code name>, message, details: [ErrorInfo] } }`.
 */
export const googleRpcStatus =
  ({ domain, contentType }: GoogleRpcStatusOptions): Format =>
  (refusal) => {
    const condition = definition(refusal);
    const body = {
      error: {
        code: condition.status,
        status: condition.a2aRest ?? "INTERNAL",
        message: `${condition.title}: ${refusal.options.detail ?? condition.when}`,
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: refusal.condition.toUpperCase(),
            domain: domain(refusal.condition),
          },
        ],
      },
    };
    return Response.json(body, {
      status: condition.status,
      headers: { ...refusalHeaders(refusal), ...noStore, "Content-Type": contentType },
    });
  };
