import { AgentCard } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion, type A2ARequestHandler } from "@a2a-js/sdk/server";
import { briefQuotaSubject } from "../briefs/quota-subject.ts";
import { AuthenticatedClient, decideRoute } from "./caller.ts";
import { readCapped } from "../http/read-capped.ts";
import { policyField, quotaHeaders } from "../limits/headers.ts";
import { QuotaStoreUnavailable, type Limiter, type QuotaResult } from "../limits/limiter.ts";
import { authorize, type Verifier } from "../oauth/protect.ts";
import type { AgentCardJson } from "./card.ts";
import { maxA2ABodyBytes } from "./constants.ts";
import { rpcError, type RpcError } from "./errors.ts";
import { chooseSkill, viewOfJson, type Route } from "./route.ts";
import { taskStoreUnavailable } from "./task-store.ts";
import { requestedPath } from "../http/emulator-retry.ts";
import { a2aPath } from "../paths.ts";

export interface A2AHandlerOptions {
  baseUrl: string;
  card: AgentCardJson;
  requestHandler: A2ARequestHandler;
  /** The shared token verifier; without it (the bench's bare handler) every call is anonymous. */
  verifier?: Verifier;
  /** The per-IP quota; without it nothing is counted. */
  limiter?: Limiter;
  /** Under netlify dev: a 403/404 is retried at `/a2a/v1.html` and the like; those calls are recognised and not counted. */
  emulatorRetries?: boolean;
  log?: (line: string) => void;
}

const exposed = "RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate";
const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": exposed };
const sendMethods = new Set(["SendMessage", "SendStreamingMessage", "message/send", "message/stream"]);

/**
 * POST /a2a/v1: the A2A JSON-RPC binding over the SDK's framework-free transport handlers (1.0, and 0.3 through the
 * compatibility layer, chosen by the A2A-Version header: absent means 0.3). Around them: the per-IP quota, the body
 * limit, JSON-RPC errors for anything malformed (never a 5xx), and the token check at the HTTP level (401/403 with a
 * Bearer challenge) for the brief skill, decided from the raw request by the same router the executor uses.
 */
export function createA2AHandler({
  baseUrl,
  card,
  requestHandler,
  verifier,
  limiter,
  emulatorRetries = false,
  log = console.error,
}: A2AHandlerOptions) {
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);
  const sdkCard = AgentCard.fromJSON(card);
  let warnedOutage = false;

  return async function handleA2A(request: Request, context: { ip: string }): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    const retry = emulatorRetries && pathname !== a2aPath && requestedPath(pathname) === a2aPath;

    let headers: Record<string, string> = { ...cors };
    const reply = (body: unknown, status = 200, extra: Record<string, string> = {}) =>
      Response.json(body, { status, headers: { ...headers, "Cache-Control": "no-store", ...extra } });
    const fail = (error: RpcError, id: unknown = null, status = 200, extra: Record<string, string> = {}) =>
      reply({ jsonrpc: "2.0", id: validId(id) ? id : null, error }, status, extra);

    if (request.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          "Access-Control-Allow-Methods": "POST",
          "Access-Control-Allow-Headers": "Authorization, Content-Type, A2A-Version, A2A-Extensions, X-A2A-Extensions",
          "Access-Control-Max-Age": "86400",
        },
      });
    }

    if (limiter) {
      try {
        const result = retry ? { ...(await limiter.peek("a2a", context.ip)), allowed: true } : await limiter.consume("a2a", context.ip);
        headers = { ...headers, ...quotaHeaders(result) };
        if (!result.allowed)
          return fail(
            rpcError("rate_limited", `Quota exhausted: ${result.limit} requests per window; retry in ${result.resetSeconds} s.`),
            null,
            429,
          );
      } catch (error) {
        headers["RateLimit-Policy"] = policyField("a2a");
        if (!(error instanceof QuotaStoreUnavailable)) {
          // A store that answers but refuses (a wrong token, a broken URL, an error): no service, never a 5xx page.
          log(`quota store error, /a2a/v1 refused: ${String(error)}`);
          return fail(rpcError("service_unavailable", "The service is briefly unavailable; retry after Retry-After seconds."), null, 503, {
            "Retry-After": "30",
          });
        }
        // The agent stays available while the quota store is unreachable, as the /api reads do.
        if (!warnedOutage) log(`quota store unreachable, /a2a/v1 served without quota enforcement: ${String(error)}`);
        warnedOutage = true;
      }
    }

    if (request.method !== "POST")
      return fail(rpcError("invalid_request", "Send JSON-RPC requests with POST."), null, 405, { Allow: "POST, OPTIONS" });
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type && type !== "application/json" && !type.endsWith("+json"))
      return fail(rpcError("invalid_request", `Content-Type must be application/json, not "${type}".`), null, 415);

    const bytes = await readCapped(request, maxA2ABodyBytes);
    if (bytes === undefined) return fail(rpcError("invalid_request", `The body is larger than ${maxA2ABodyBytes} bytes.`), null, 413);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      return fail(rpcError("parse_error", `The body is not valid JSON: ${(error as Error).message}.`));
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return fail(
        rpcError(
          "invalid_request",
          Array.isArray(body) ? "Batch requests are not supported." : "The body must be a JSON-RPC request object.",
        ),
      );
    const rpc = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { message?: unknown } };
    if (rpc.jsonrpc !== "2.0" || typeof rpc.method !== "string")
      return fail(rpcError("invalid_request", "Not a JSON-RPC 2.0 request."), rpc.id);

    // A2A 1.0 §3.6: a missing or empty A2A-Version means 0.3.
    const version = (request.headers.get("a2a-version") ?? searchParams.get("A2A-Version") ?? "").trim() || "0.3";
    try {
      validateVersion(version, sdkCard, "JSONRPC");
    } catch {
      return fail(rpcError("version_not_supported", `A2A-Version ${version} is not served here; send 1.0 or 0.3.`), rpc.id);
    }

    let route: Route | undefined;
    if (sendMethods.has(rpc.method)) {
      const view = viewOfJson(rpc.params?.message, version);
      if (!view) return fail(rpcError("invalid_params", "params.message with a parts array of valid parts is required."), rpc.id);
      if (view.otherParts > 0 || view.texts.length + view.data.length === 0)
        return fail(
          rpcError("content_type_not_supported", "Send text parts and data parts (application/json) only; files are not read."),
          rpc.id,
        );
      route = chooseSkill(view);
    }
    const brief = route?.kind === "brief";

    let user: AuthenticatedClient | undefined;
    if (verifier && (brief || request.headers.has("authorization"))) {
      const auth = await authorize(verifier, request, baseUrl, "a2a", brief ? ["svc:brief"] : []);
      if (!auth.ok) {
        const error = rpcError(
          auth.code,
          `${auth.detail} Filing a brief needs an access token with the scope svc:brief; see the card's securitySchemes.`,
        );
        return fail(error, rpc.id, auth.status, { "WWW-Authenticate": auth.challenge });
      }
      user = new AuthenticatedClient(auth.clientId, auth.scopes);
    }

    if (brief && limiter && user) {
      // Every brief message stores a task, valid or not: each counts, per client (one per host for metadata documents).
      let tasks: QuotaResult | undefined;
      try {
        tasks = await limiter.consume("a2a-briefs", briefQuotaSubject(user.userName));
      } catch (error) {
        // Unreachable: the task store is the same database, and answers service_unavailable below.
        if (!(error instanceof QuotaStoreUnavailable)) {
          log(`quota store error, an A2A brief refused: ${String(error)}`);
          return fail(rpcError("service_unavailable", taskStoreUnavailable), rpc.id, 503, { "Retry-After": "30" });
        }
      }
      if (tasks && !tasks.allowed)
        return fail(
          rpcError("rate_limited", `This client has sent its ${tasks.limit} brief messages for now; retry in ${tasks.resetSeconds} s.`),
          rpc.id,
          429,
          quotaHeaders(tasks),
        );
    }

    const callContext = new ServerCallContext({ user, requestedVersion: version });
    if (route) decideRoute(callContext, route);
    const transport = version.startsWith("0.") ? legacy : v1;
    const mapError = version.startsWith("0.")
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
      : JsonRpcTransportHandler.mapToJSONRPCError;
    try {
      const result = await transport.handle(body as Record<string, unknown>, callContext);
      if (Symbol.asyncIterator in (result as object)) {
        // Streaming is not offered (capabilities.streaming is false); the SDK refuses on the first event.
        const stream = result as AsyncGenerator<unknown>;
        try {
          await stream.next();
          await stream.return(undefined);
          return fail(rpcError("unsupported_operation", "Streaming is not supported."), rpc.id);
        } catch (error) {
          return fail(mapError(error) as RpcError, rpc.id);
        }
      }
      if ((result as { error?: { message?: unknown } }).error?.message === taskStoreUnavailable)
        return fail(rpcError("service_unavailable", taskStoreUnavailable), rpc.id, 503, { "Retry-After": "30" });
      return reply(result);
    } catch (error) {
      log(`A2A request failed: ${String(error)}`);
      return fail(mapError(error) as RpcError, rpc.id);
    }
  };
}

const validId = (id: unknown) => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));
