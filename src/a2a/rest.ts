import type { AgentCard } from "@a2a-js/sdk";
import { validateVersion, type A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Hono } from "hono";
import { readJson } from "../http/body.ts";
import type { DoorContext, DoorEnv } from "../http/context.ts";
import { publicCors } from "../http/cors.ts";
import { door } from "../http/door.ts";
import { methodNotAllowed } from "../http/methods.ts";
import { refuseDeepNesting } from "../http/nesting.ts";
import { Refusal } from "../http/refusal.ts";
import { a2aRestPath, agentCardPath, routeMethods, guidePagePaths } from "../paths.ts";
import { storeFailed } from "./caller.ts";
import { maxA2ABodyBytes } from "./constants.ts";
import { a2aJsonTypes } from "./media-type.ts";
import { a2aRestErrors } from "./errors.ts";
import { undecodable } from "./params.ts";
import { requestHeaders, requestedVersion, type A2AGate } from "./gate.ts";
import { restMethods, restOperation, restOperations } from "./rest-routes.ts";
import { lazy } from "../lazy.ts";

/** GET at the binding's base URL: a short description, its operations, and the agent card to start from. */
function bindingDescription(card: AgentCard) {
  const url = card.supportedInterfaces.find((i) => i.protocolBinding === "HTTP+JSON")?.url ?? a2aRestPath;
  const origin = new URL(url, "http://localhost").origin;
  return {
    protocolBinding: "HTTP+JSON",
    protocolVersion: "1.0",
    url,
    description: `A2A 1.0's HTTP+JSON binding of ${card.name}. Send A2A-Version: 1.0 with every request; start with POST ${url}/message:send. The agent card says what the agent does and which skills it has.`,
    agentCard: `${origin}${agentCardPath}`,
    documentation: `${origin}${guidePagePaths.a2a}`,
    operations: restOperations().map(({ method, path }) => ({ method, url: `${origin}${path}` })),
  };
}

/** A request no operation takes: 405 with the methods its path takes, or not_found where it takes none. */
function unrouted(c: DoorContext): Refusal {
  const methods = restMethods(new URL(c.req.url).pathname);
  if (methods.length === 0)
    return new Refusal("not_found", { detail: `${c.req.method} ${c.req.path} is not an operation of A2A's HTTP+JSON binding.` });
  return methodNotAllowed([...methods, "OPTIONS"], { detail: `${c.req.path} takes ${methods.join(", ")}, not ${c.req.method}.` });
}

/**
 * The HTTP+JSON binding, to be mounted at /a2a/v1/rest: the same gate in front of the SDK's REST handler, refusals as
 * google.rpc.Status.
 */
export function restBinding(
  requestHandler: A2ARequestHandler,
  { sdkCard, middleware, admit }: A2AGate,
  log: (line: string) => void,
): Hono<DoorEnv> {
  const rest = door(a2aRestErrors, log);
  const pathOf = (c: DoorContext) => new URL(c.req.url).pathname;
  rest.use(publicCors((c) => restMethods(pathOf(c)), requestHeaders));
  for (const gate of middleware) rest.use(gate);
  // Express and the SDK's REST handler load with the first REST call: a JSON-RPC instance never pays for them.
  const sdkRest = lazy(() => import("./rest-bridge.ts").then(({ sdkRestHandler }) => sdkRestHandler(requestHandler, a2aRestPath)));
  // The binding's base URL, which the agent card publishes: what it is, and where to start.
  rest.get("/", () => Response.json(bindingDescription(sdkCard), { headers: { "Cache-Control": "public, max-age=300" } }));
  // OPTIONS never reaches the route: CORS answers it.
  rest.on(routeMethods[a2aRestPath], "/*", async (c) => {
    const operation = restOperation(c.req.method, pathOf(c));
    if (!operation) throw unrouted(c);
    const sends = operation === "send";
    // Sends carry a SendMessageRequest; the other POSTs (a cancel, a subscription) may carry nothing.
    const body =
      c.req.method === "POST"
        ? await readJson(c.req.raw, { limit: maxA2ABodyBytes, types: a2aJsonTypes, untypedIsJson: true, optional: !sends })
        : undefined;
    refuseDeepNesting(body);
    const version = requestedVersion(c);
    try {
      validateVersion(version, sdkCard, "HTTP+JSON");
    } catch {
      throw new Refusal("version_not_supported", { detail: `A2A-Version ${version} is not served on HTTP+JSON; send A2A-Version: 1.0.` });
    }
    if (sends && (typeof body !== "object" || body === null || Array.isArray(body)))
      throw new Refusal("invalid_params", { detail: "The body must be a SendMessageRequest object with a message." });
    const undecoded = sends ? undecodable("SendMessage", body, "The body") : undefined;
    if (undecoded) throw new Refusal("invalid_params", { detail: undecoded });
    const message = sends ? ((body as { message?: unknown }).message ?? null) : undefined;
    const context = await admit(c, version, message, operation === "list" || operation === "cancel" ? operation : undefined, "message");
    // A HEAD is the GET's answer, its body dropped by Hono: the SDK's handler is asked the GET.
    const request = c.req.method === "HEAD" ? new Request(c.req.raw, { method: "GET" }) : c.req.raw;
    const answer = await (await sdkRest())({ request, body, context });
    if (storeFailed(context)) throw new Refusal("service_unavailable");
    if (!answer)
      throw new Refusal("not_found", { detail: `${c.req.method} ${c.req.path} is not an operation of A2A's HTTP+JSON binding.` });
    return answer;
  });
  rest.all("/*", (c) => {
    throw unrouted(c);
  });
  return rest;
}
