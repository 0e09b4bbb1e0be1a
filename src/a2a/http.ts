import { AgentCard } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import {
  JsonRpcTransportHandler,
  ServerCallContext,
  UnauthenticatedUser,
  validateVersion,
  type A2ARequestHandler,
} from "@a2a-js/sdk/server";
import { readJson } from "../http/body.ts";
import { refuseDeepNesting } from "../http/nesting.ts";
import { identify, refuseInvalidToken, requireToken, type Verifier } from "../http/bearer.ts";
import { setHeaders, type DoorContext, type Handler } from "../http/context.ts";
import { publicCors } from "../http/cors.ts";
import { door, handlerOf } from "../http/door.ts";
import { countAlso, quota } from "../http/quota.ts";
import { Refusal } from "../http/refusal.ts";
import type { Limiter } from "../limits/limiter.ts";
import { a2aPath, a2aRestPath } from "../paths.ts";
import { AuthenticatedCaller, decideRoute, setWaitUntil, storeFailed } from "./caller.ts";
import type { AgentCardJson } from "./card.ts";
import { maxA2ABodyBytes } from "./constants.ts";
import { a2aErrors, a2aRestErrors, protocolError, restProtocolError, type A2ARestProtocolError } from "./errors.ts";
import { jsonRpcResponseType } from "./media-type.ts";
import type { SdkRest } from "./rest-bridge.ts";
import { knownMethod, messageProblem, paramsProblem } from "./params.ts";
import { restOperation } from "./rest-routes.ts";
import { chooseSkill, viewOfJson, type Route } from "./route.ts";

export interface A2AHandlerOptions {
  baseUrl: string;
  card: AgentCardJson;
  requestHandler: A2ARequestHandler;
  /** The shared token verifier; without it (the bench's bare handler) every call is anonymous. */
  verifier?: Verifier;
  /** The quota (per grant with a valid token, else per IP) and each grant's brief messages; without it nothing is counted. */
  limiter?: Limiter;
  log?: (line: string) => void;
}

const sendMethods = new Set(["SendMessage", "SendStreamingMessage", "message/send", "message/stream"]);
const validId = (id: unknown) => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

/**
 * POST /a2a/v1: the A2A JSON-RPC binding over the SDK's framework-free transport handlers (1.0, and 0.3 through the
 * compatibility layer, chosen by the A2A-Version header: absent means 0.3). In front of them, from the HTTP core: the
 * per-IP quota, CORS, the body limit and the errors; here: the skill decided once from the message as the SDK will
 * decode it, the token check for the brief at the HTTP level, and the per-client count of brief messages.
 */
export function createA2AHandler({ baseUrl, card, requestHandler, verifier, limiter, log = console.error }: A2AHandlerOptions): Handler {
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);
  const sdkCard = AgentCard.fromJSON(card);

  // Both bindings: the token verified once, then the request counted against its grant, or the client IP without one.
  const gates = [
    ...(verifier ? [identify(verifier)] : []),
    ...(limiter ? [quota(limiter, "a2a", { whenUnreachable: "serve", grants: { ceiling: "grants-per-address" }, log })] : []),
  ];

  const app = door(a2aErrors, log);
  // A2A 1.0.1's media type on every JSON answer, errors included, to a client whose Accept names it.
  app.use(async (c, next) => {
    await next();
    const type = jsonRpcResponseType(c.req.header("accept"));
    if (type !== "application/json" && c.res.headers.get("content-type")?.startsWith("application/json"))
      setHeaders(c, { "Content-Type": type });
  });
  app.use(publicCors(["POST"], requestHeaders));
  for (const gate of gates) app.use(gate);
  app.post(a2aPath, async (c) => {
    const body = await readJson(c.req.raw, { limit: maxA2ABodyBytes, wrongType: "unsupported_media_type", untypedIsJson: true });
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new Refusal("invalid_request", {
        detail: Array.isArray(body) ? "Batch requests are not supported." : "The body must be a JSON-RPC request object.",
      });
    const rpc = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { message?: unknown } };
    c.set("rpcId", validId(rpc.id) ? (rpc.id as string | number) : null);
    if (rpc.jsonrpc !== "2.0" || typeof rpc.method !== "string")
      throw new Refusal("invalid_request", { detail: "Not a JSON-RPC 2.0 request." });
    refuseDeepNesting(body);

    const version = requestedVersion(c);
    try {
      validateVersion(version, sdkCard, "JSONRPC");
    } catch {
      return protocolError("version_not_supported", `A2A-Version ${version} is not served here; send 1.0 or 0.3.`, rpc.id);
    }
    if (!knownMethod(rpc.method, version))
      return protocolError("method_not_found", `Method not found: A2A ${version} defines no method of that name.`, rpc.id);
    const message = sendMethods.has(rpc.method) ? (rpc.params?.message ?? null) : undefined;
    const problem = paramsProblem(rpc.method, rpc.params, version) ?? messageProblem(message);
    if (problem) return protocolError("invalid_params", problem, rpc.id);
    const admitted = await admit(c, version, message, rpc.method === "ListTasks");
    if ("refused" in admitted) return protocolError(admitted.refused, admitted.message, rpc.id);
    const callContext = admitted.context;
    return dispatch(c, body as Record<string, unknown>, callContext, version, rpc.id);
  });
  app.all(a2aPath, () => {
    throw new Refusal("method_not_allowed", { detail: "Send JSON-RPC requests with POST.", headers: { Allow: "POST, OPTIONS" } });
  });

  /**
   * What both bindings check before the SDK sees a call: the message a send carries (decoded as the SDK will, so the
   * skill is decided once), the token (the brief needs svc:brief; any token sent is checked), the per-client count of
   * brief messages. `message` is undefined for a call that sends none; `listsTasks` marks ListTasks.
   */
  async function admit(c: DoorContext, version: string, message: unknown, listsTasks: boolean): Promise<Admitted> {
    let route: Route | undefined;
    if (message !== undefined) {
      const view = viewOfJson(message, version);
      if (!view) return { refused: "invalid_params", message: "params.message with a parts array of valid parts is required." };
      if (view.otherParts > 0 || view.texts.length + view.data.length === 0)
        return {
          refused: "content_type_not_supported",
          message: "Send text parts and data parts (application/json) only; files are not read.",
        };
      route = chooseSkill(view);
    }
    const brief = route?.kind === "brief";
    // A grant lists only its own tasks, so an anonymous ListTasks is asked to authenticate (any valid token).
    const needsToken = brief || listsTasks;
    const where = { baseUrl, resource: "a2a" } as const;
    const caller = !verifier
      ? undefined
      : needsToken
        ? requireToken(c, { ...where, scopes: brief ? ["svc:brief"] : [] })
        : refuseInvalidToken(c, where);
    const user = caller && new AuthenticatedCaller({ ...caller, address: c.env.ip });
    // Every message to the brief skill stores a task, valid or not: each counts against the caller's grant, and against
    // its address's ceiling for every grant together.
    if (brief && limiter && user) await countAlso(limiter, "a2a-briefs", c, { grant: user.grantId, ceiling: "a2a-briefs-per-address" });

    const context = new ServerCallContext({ user: user ?? new UnauthenticatedUser(), requestedVersion: version });
    if (route) decideRoute(context, route);
    setWaitUntil(context, (work) => c.env.waitUntil(work));
    return { context };
  }

  async function dispatch(c: DoorContext, body: Record<string, unknown>, callContext: ServerCallContext, version: string, id: unknown) {
    const old = version.startsWith("0.");
    const sdkMapError = old ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const mapError = (error: unknown) => withoutEngineText(sdkMapError(error));
    let result: unknown;
    try {
      result = await (old ? legacy : v1).handle(body, callContext);
    } catch (error) {
      if (storeFailed(callContext)) throw new Refusal("service_unavailable", { headers: { "Retry-After": "30" } });
      log(`A2A request failed: ${String(error)}`);
      return Response.json(
        { jsonrpc: "2.0", id: validId(id) ? id : null, error: mapError(error) },
        { headers: { "Cache-Control": "no-store" } },
      );
    }
    if (storeFailed(callContext)) throw new Refusal("service_unavailable", { headers: { "Retry-After": "30" } });
    if (Symbol.asyncIterator in (result as object)) {
      // Streaming is not offered (capabilities.streaming is false); the SDK refuses on the first event.
      const stream = result as AsyncGenerator<unknown>;
      try {
        await stream.next();
        await stream.return(undefined);
        return protocolError("unsupported_operation", "Streaming is not supported.", id);
      } catch (error) {
        return Response.json(
          { jsonrpc: "2.0", id: validId(id) ? id : null, error: mapError(error) },
          { headers: { "Cache-Control": "no-store" } },
        );
      }
    }
    const answered = result as { error?: JsonRpcError };
    return c.json(answered.error ? { ...answered, error: withoutEngineText(answered.error) } : answered, 200, {
      "Cache-Control": "no-store",
    });
  }

  /**
   * The SDK answers an error it did not expect as -32603 with the error's own message (a TypeError's words, a stack
   * frame's names). The gate checks what requests carry, so that is a fault of ours: it is logged, and the client gets
   * the code without the engine's text.
   */
  function withoutEngineText(error: JsonRpcError): JsonRpcError {
    if (error.code !== -32603) return error;
    log(`A2A answered an internal error: ${String(error.message)}`);
    return { code: -32603, message: "Internal error: the agent failed to answer this request. It has been logged." };
  }

  // The HTTP+JSON binding: the same gate in front of the SDK's REST handler, refusals as google.rpc.Status.
  const rest = door(a2aRestErrors, log);
  rest.use(publicCors(["GET", "POST"], requestHeaders));
  for (const gate of gates) rest.use(gate);
  let sdkRest: Promise<SdkRest> | undefined;
  rest.on(["GET", "POST"], `${a2aRestPath}/*`, async (c) => {
    const operation = restOperation(c.req.method, new URL(c.req.url).pathname);
    if (!operation)
      throw new Refusal("not_found", { detail: `${c.req.method} ${c.req.path} is not an operation of A2A's HTTP+JSON binding.` });
    const sends = operation === "send";
    // Sends carry a SendMessageRequest; the other POSTs (a cancel, a subscription) may carry nothing.
    const body =
      c.req.method === "POST"
        ? await readJson(c.req.raw, { limit: maxA2ABodyBytes, wrongType: "unsupported_media_type", untypedIsJson: true, optional: !sends })
        : undefined;
    refuseDeepNesting(body);
    const version = requestedVersion(c);
    try {
      validateVersion(version, sdkCard, "HTTP+JSON");
    } catch {
      return restProtocolError("version_not_supported", `A2A-Version ${version} is not served on HTTP+JSON; send A2A-Version: 1.0.`);
    }
    if (sends && (typeof body !== "object" || body === null || Array.isArray(body)))
      return restProtocolError("invalid_params", "The body must be a SendMessageRequest object with a message.");
    const message = sends ? ((body as { message?: unknown }).message ?? null) : undefined;
    const problem = messageProblem(message, "message");
    if (problem) return restProtocolError("invalid_params", problem);
    const admitted = await admit(c, version, message, operation === "list");
    if ("refused" in admitted) return restProtocolError(admitted.refused, admitted.message);
    // Express and the SDK's REST handler load with the first REST call: a JSON-RPC instance never pays for them.
    sdkRest ??= import("./rest-bridge.ts").then(({ sdkRestHandler }) => sdkRestHandler(requestHandler, a2aRestPath));
    const answer = await (await sdkRest)({ request: c.req.raw, body, context: admitted.context });
    if (storeFailed(admitted.context)) throw new Refusal("service_unavailable", { headers: { "Retry-After": "30" } });
    if (!answer)
      throw new Refusal("not_found", { detail: `${c.req.method} ${c.req.path} is not an operation of A2A's HTTP+JSON binding.` });
    return answer;
  });
  rest.all(`${a2aRestPath}/*`, (c) => {
    throw new Refusal("method_not_allowed", {
      detail: `${c.req.method} is not used by A2A's HTTP+JSON binding: reads are GET, sends and cancels POST.`,
      headers: { Allow: "GET, POST, OPTIONS" },
    });
  });

  const rpcDoor = handlerOf(app);
  const restDoor = handlerOf(rest);
  return (request, context) => {
    const { pathname } = new URL(request.url);
    return pathname === a2aRestPath || pathname.startsWith(`${a2aRestPath}/`) ? restDoor(request, context) : rpcDoor(request, context);
  };
}

const requestHeaders = ["Authorization", "Content-Type", "A2A-Version", "A2A-Extensions", "X-A2A-Extensions"];

/** A2A 1.0 §3.6: the A2A-Version header (or query parameter); missing or empty means 0.3. */
const requestedVersion = (c: DoorContext) => (c.req.header("a2a-version") ?? c.req.query("A2A-Version") ?? "").trim() || "0.3";

type JsonRpcError = { code: number; message: string; data?: unknown };

type Admitted = { context: ServerCallContext } | { refused: A2ARestProtocolError; message: string };
