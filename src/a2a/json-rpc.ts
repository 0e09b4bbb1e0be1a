import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion, type A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Hono } from "hono";
import { mediaTypeOf, readJson } from "../http/body.ts";
import { setHeaders, type DoorContext, type DoorEnv } from "../http/context.ts";
import { publicCors } from "../http/cors.ts";
import { door } from "../http/door.ts";
import { refuseOtherMethods } from "../http/methods.ts";
import { refuseDeepNesting } from "../http/nesting.ts";
import { Refusal } from "../http/refusal.ts";
import { a2aPath, routeMethods } from "../paths.ts";
import { storeFailed } from "./caller.ts";
import { maxA2ABodyBytes } from "./constants.ts";
import { a2aJsonTypes } from "./media-type.ts";
import { a2aErrors } from "./errors.ts";
import { requestHeaders, requestedVersion, type A2AGate, type TaskCall } from "./gate.ts";
import { jsonRpcResponseType } from "./media-type.ts";
import { knownMethod, paramsProblem } from "./params.ts";

const sendMethods = new Set(["SendMessage", "SendStreamingMessage", "message/send", "message/stream"]);
/** The methods the gate admits apart (gate.ts), in both eras: 0.3 lists no tasks. */
const taskCalls: Partial<Record<string, TaskCall>> = { ListTasks: "list", CancelTask: "cancel", "tasks/cancel": "cancel" };
const validId = (id: unknown) => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

type JsonRpcError = { code: number; message: string; data?: unknown };

/**
 * POST /a2a/v1: the A2A JSON-RPC binding over the SDK's framework-free transport handlers (1.0, and 0.3 through the
 * compatibility layer, chosen by the A2A-Version header: absent means 0.3). In front of them, from the HTTP core: the
 * per-IP quota, CORS, the body limit and the errors; from the gate: the skill decided once from the message as the SDK
 * will decode it, the token check for the brief at the HTTP level, and the per-client count of brief messages.
 */
export function jsonRpcBinding(
  requestHandler: A2ARequestHandler,
  { sdkCard, middleware, admit }: A2AGate,
  log: (line: string) => void,
): Hono<DoorEnv> {
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);

  const app = door(a2aErrors, log);
  // A2A 1.0.1's media type on every JSON answer, errors included, to a client whose Accept names it.
  app.use(async (c, next) => {
    await next();
    const type = jsonRpcResponseType(c.req.header("accept"));
    if (type !== "application/json" && mediaTypeOf(c.res.headers.get("content-type")) === "application/json")
      setHeaders(c, { "Content-Type": type });
  });
  app.use(publicCors(routeMethods[a2aPath], requestHeaders));
  for (const gate of middleware) app.use(gate);
  // OPTIONS never reaches the route: CORS answers it.
  app.on(routeMethods[a2aPath], a2aPath, async (c) => {
    const body = await readJson(c.req.raw, { limit: maxA2ABodyBytes, types: a2aJsonTypes, untypedIsJson: true });
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new Refusal("invalid_request", {
        detail: Array.isArray(body) ? "Batch requests are not supported." : "The body must be a JSON-RPC request object.",
      });
    const rpc = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { message?: unknown } };
    c.set("rpcId", validId(rpc.id) ? (rpc.id as string | number) : null);
    if (rpc.jsonrpc !== "2.0" || typeof rpc.method !== "string")
      throw new Refusal("invalid_request", { detail: "Not a JSON-RPC 2.0 request." });
    // JSON-RPC 2.0 §4: an id is a string, a number or null; a fraction is a number no client should send, and none is echoed.
    if (rpc.id !== undefined && rpc.id !== null && !validId(rpc.id))
      throw new Refusal("invalid_request", { detail: "The id must be a string or an integer." });
    refuseDeepNesting(body);

    const version = requestedVersion(c);
    try {
      validateVersion(version, sdkCard, "JSONRPC");
    } catch {
      throw new Refusal("version_not_supported", { detail: `A2A-Version ${version} is not served here; send 1.0 or 0.3.` });
    }
    if (!knownMethod(rpc.method, version))
      throw new Refusal("method_not_found", { detail: `A2A ${version} defines no method ${JSON.stringify(rpc.method.slice(0, 64))}.` });
    const message = sendMethods.has(rpc.method) ? (rpc.params?.message ?? null) : undefined;
    const problem = paramsProblem(rpc.method, rpc.params, version);
    if (problem) throw new Refusal("invalid_params", { detail: problem });
    const callContext = await admit(c, version, message, taskCalls[rpc.method]);
    return dispatch(c, body as Record<string, unknown>, callContext, version, rpc.id);
  });
  app.all(a2aPath, refuseOtherMethods(routeMethods[a2aPath], "Send JSON-RPC requests with POST."));

  async function dispatch(c: DoorContext, body: Record<string, unknown>, callContext: ServerCallContext, version: string, id: unknown) {
    const old = version.startsWith("0.");
    const sdkMapError = old ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const mapError = (error: unknown) => withoutEngineText(sdkMapError(error));
    let result: unknown;
    try {
      result = await (old ? legacy : v1).handle(body, callContext);
    } catch (error) {
      if (storeFailed(callContext)) throw new Refusal("service_unavailable");
      log(`A2A request failed: ${String(error)}`);
      return Response.json(
        { jsonrpc: "2.0", id: validId(id) ? id : null, error: mapError(error) },
        { headers: { "Cache-Control": "no-store" } },
      );
    }
    if (storeFailed(callContext)) throw new Refusal("service_unavailable");
    if (Symbol.asyncIterator in (result as object)) {
      // Streaming is not offered (capabilities.streaming is false); the SDK refuses on the first event.
      const stream = result as AsyncGenerator<unknown>;
      try {
        await stream.next();
        await stream.return(undefined);
        throw new Refusal("unsupported_operation", { detail: "Streaming is not offered (the card says streaming: false)." });
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

  return app;
}
