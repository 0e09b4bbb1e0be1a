import {
  createMcpHandler as sdkHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServer,
} from "@modelcontextprotocol/server";
import { matchesIfNoneMatch, strongEtag } from "../http/etag.ts";
import { readCors } from "../http/cors.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { readJson } from "../http/body.ts";
import { refuseDeepNesting } from "../http/nesting.ts";
import { identify, refuseInvalidToken, requireToken, type Verifier } from "../http/bearer.ts";
import type { DoorContext, Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { quota } from "../http/quota.ts";
import { refuseOtherMethods } from "../http/methods.ts";
import { Refusal } from "../http/refusal.ts";
import type { Limiter } from "../limits/limiter.ts";
import { mcpPath, routeMethods, serverCardPath } from "../paths.ts";
import { jsonBody } from "../resources/json.ts";
import { prefersEventStream, sdkAccept } from "./accept.ts";
import { scopesNeeded } from "./auth-gate.ts";
import { refuseBatch } from "./batch.ts";
import { maxMcpBodyBytes, serverCardMediaType } from "./constants.ts";
import { mcpErrors } from "./errors.ts";
import { checkMessage } from "./json-rpc.ts";
import { hostsOf } from "./origins.ts";
import { mirroredArguments, paramHeaderMismatch } from "./param-headers.ts";
import { paramsProblem } from "./params.ts";
import type { Era } from "./server.ts";
import type { ToolDefinition } from "./tool.ts";

export interface McpHandlerOptions {
  baseUrl: string;
  /** Origins a browser may call from (see origins.ts); requests without an Origin header are not browsers and pass. */
  allowedOrigins: string[];
  limiter: Limiter;
  verifier: Verifier;
  /**
   * A fresh server for each request (stateless transport), for the protocol era the request speaks and the method it
   * calls (none for a batch).
   */
  createServer: (era: Era, method?: string) => McpServer;
  /** The tools as tools/list publishes them: their arguments mirrored in Mcp-Param headers are checked here. */
  tools: ToolDefinition[];
  /** The server card, the same document the build writes to /.well-known/mcp/server-card.json. */
  card: object;
  log?: (message: string) => void;
}

/**
 * /mcp (Streamable HTTP, stateless, both protocol eras) and /mcp/server-card: the quota, the card, Origin and Host, the
 * body limit, batches (2025-03-26's only, batch.ts), auth, then the SDK. A request that carries the 2026-07-28 `_meta`
 * envelope goes to the SDK's own entry for that revision (`server/discover`, the envelope and header checks,
 * `resultType`, cache hints, -32022 for a revision it does not serve); any other is a 2025-era request, served as before
 * by a stateless transport.
 */
export function createMcpHandler(options: McpHandlerOptions): Handler {
  const { baseUrl, allowedOrigins, limiter, verifier, log = console.error } = options;
  const allowedHosts = hostsOf(allowedOrigins);
  const mirrored = new Map(options.tools.map((tool) => [tool.name, mirroredArguments(tool)]));
  const cardText = jsonBody(options.card);
  let cardEtag: Promise<string> | undefined;
  // The SDK's entry, modern-only (the 2025 era is ours, below): JSON unless the client prefers an event stream.
  // The SDK asks for a server once it has checked that the request's Mcp-Method header names the body's method.
  const modern = (["auto", "sse"] as const).map((responseMode) =>
    sdkHandler(({ era, requestInfo }) => options.createServer(era, requestInfo?.headers.get("mcp-method") ?? undefined), {
      legacy: "reject",
      responseMode,
    }),
  );

  const app = door(mcpErrors(baseUrl), log);
  // The card is a public read; /mcp itself is for this site's pages and for clients that are not browsers.
  app.use(serverCardPath, readCors(routeMethods[serverCardPath]));
  // A valid token's grant is counted, anything else the client IP, one per message once the body is read (a request
  // refused before, and the server card, count one); reads are answered while the request is counted, a brief is filed
  // only once it was (below).
  app.use(identify(verifier));
  // DNS-rebinding protection, before anything counts: another site's page may neither call from its origin nor through a
  // rebound name, and what it sends costs its visitor nothing.
  app.use(mcpPath, sameOrigin(allowedOrigins));
  app.use(quota(limiter, "mcp", { whenUnreachable: "serve", alongside: true, grants: { ceiling: "grants-per-address" }, log }));

  app.on(routeMethods[serverCardPath], serverCardPath, async (c) => {
    cardEtag ??= strongEtag(new TextEncoder().encode(cardText).buffer as ArrayBuffer);
    const etag = await cardEtag;
    const headers = { "Content-Type": serverCardMediaType, "Cache-Control": "public, max-age=3600", ETag: etag };
    if (matchesIfNoneMatch(c.req.header("if-none-match") ?? null, etag)) return new Response(null, { status: 304, headers });
    return new Response(c.req.method === "HEAD" ? null : cardText, { headers });
  });
  app.all(serverCardPath, refuseOtherMethods(routeMethods[serverCardPath], "The server card answers GET."));

  app.on(routeMethods[mcpPath], mcpPath, async (c) => {
    const host = c.req.header("host");
    if (host === undefined || !allowedHosts.includes(host.toLowerCase()))
      throw new Refusal("forbidden_origin", { detail: `Host ${host ?? "(none)"} is not this site's.` });
    const parsed = await readJson(c.req.raw, { limit: maxMcpBodyBytes });
    if (Array.isArray(parsed)) refuseBatch(parsed, c.req.raw.headers);
    const body = checkedMessages(parsed, c);
    // Limits count who is really calling: each message of a batch is a request, counted from here alongside the work.
    await c.var.weigh(Array.isArray(body) ? body.length : 1);
    const gate = scopesNeeded(body);
    c.set("rpcId", gate.id);
    refuseDeepNesting(body);
    const legacy = await isLegacyRequest(c.req.raw, body);
    refuseInvalidParams(body, legacy ? "legacy" : "modern", c);
    const caller =
      gate.scopes.length > 0
        ? requireToken(c, { baseUrl, resource: "mcp", scopes: gate.scopes })
        : refuseInvalidToken(c, { baseUrl, resource: "mcp" });
    // Only a call that needs a scope can have a side effect (submit_project_brief files a lead): it waits for the quota.
    if (gate.scopes.length > 0) await c.get("counted");
    const authInfo: AuthInfo | undefined = caller && {
      token: caller.token,
      clientId: caller.clientId,
      scopes: caller.scopes,
      extra: { grantId: caller.grantId, address: caller.address, waitUntil: (work: Promise<unknown>) => c.env.waitUntil(work) },
    };
    return answerWithSdk(c, body, authInfo, legacy);
  });
  // GET would open a standalone event stream that a stateless function can only hold until it times out.
  app.all(mcpPath, refuseOtherMethods(routeMethods[mcpPath], "/mcp answers POST only (stateless: no event stream, no session)."));

  /** Members JSON-RPC does not define are dropped; anything that is not a JSON-RPC message is an Invalid Request. */
  function checkedMessages(parsed: unknown, c: DoorContext): unknown {
    const messages: Record<string, unknown>[] = [];
    for (const [index, checked] of (Array.isArray(parsed) ? parsed : [parsed]).map(checkMessage).entries()) {
      if (!checked.ok) {
        c.set("rpcId", Array.isArray(parsed) ? null : checked.id);
        const what = Array.isArray(parsed) ? `Message ${index + 1} of the batch is` : "The body is JSON but";
        throw new Refusal("invalid_request", { detail: `${what} not a JSON-RPC 2.0 request, notification or response.` });
      }
      messages.push(checked.message);
    }
    return Array.isArray(parsed) ? messages : messages[0];
  }

  /**
   * The 2025 era: a stateless transport per request, as the v1 SDK served it, JSON or an event stream by Accept. A
   * successful `initialize` also answers an `Mcp-Session-Id`: random and kept nowhere. The revision lets a server assign
   * one and refuse to terminate it (DELETE answers 405), and nothing a session could hold is held here anyway: a request
   * that carries it is served exactly as one that does not.
   */
  async function answerLegacy(request: Request, body: unknown, authInfo: AuthInfo | undefined, stream: boolean) {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !stream });
    const method = (body as { method?: unknown }).method;
    const server = options.createServer("legacy", typeof method === "string" ? method : undefined);
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body, authInfo });
    // A JSON answer is complete; an event stream closes itself once the response is written.
    if (!stream) await server.close();
    if (response.status === 200 && (body as { method?: unknown }).method === "initialize")
      response.headers.set("Mcp-Session-Id", crypto.randomUUID());
    return response;
  }

  /** A request whose params its method does not take (params.ts) goes no further; in a batch, the first such names its id. */
  function refuseInvalidParams(body: unknown, era: Era, c: DoorContext) {
    for (const message of (Array.isArray(body) ? body : [body]) as { id?: string | number; method?: unknown; params?: unknown }[]) {
      const problem = paramsProblem(message, era);
      if (!problem) continue;
      if (Array.isArray(body)) c.set("rpcId", message.id ?? null);
      throw new Refusal("invalid_params", { detail: problem });
    }
  }

  /** A 2026-07-28 tools/call whose Mcp-Param headers disagree with its arguments (param-headers.ts) goes no further. */
  function refuseParamHeaderMismatch(body: unknown, headers: Headers) {
    const { method, params } = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    const arguments_ = method === "tools/call" && typeof params?.name === "string" ? mirrored.get(params.name) : undefined;
    const mismatch = arguments_ && paramHeaderMismatch(arguments_, params?.arguments, headers);
    if (mismatch) throw new Refusal("header_mismatch", { detail: mismatch });
  }

  async function answerWithSdk(c: DoorContext, body: unknown, authInfo: AuthInfo | undefined, legacy: boolean): Promise<Response> {
    const stream = prefersEventStream(c.req.header("accept") ?? null);
    // The body is read and checked: the SDK gets it parsed, with the headers it insists on (we have chosen already).
    const headers = new Headers(c.req.raw.headers);
    headers.set("accept", sdkAccept);
    headers.set("content-type", "application/json");
    const request = new Request(c.req.url, { method: "POST", headers });
    if (!legacy) refuseParamHeaderMismatch(body, request.headers);
    const response = legacy
      ? await answerLegacy(request, body, authInfo, stream)
      : await modern[stream ? 1 : 0]!.fetch(request, { parsedBody: body, authInfo });
    // The SDK answers 500 when a server failed; the door answers 503 with Retry-After, as for any failure of its own.
    if (response.status >= 500) throw new Error(`the MCP SDK answered ${response.status}: ${await response.text()}`);
    const out = new Headers(response.headers);
    if (!out.has("cache-control")) out.set("Cache-Control", "no-store");
    const id = Array.isArray(body) ? null : (body as { id?: string | number }).id;
    if (response.status >= 400 && id !== undefined && id !== null) {
      // The SDK refuses some requests at the transport (an unsupported MCP-Protocol-Version, say) with a null id;
      // the request was read, so its error answers its id. A refusal whose body is not JSON passes as it is.
      const error = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { id?: unknown } | undefined;
      if (error && typeof error === "object")
        return Response.json({ ...error, id: error.id ?? id }, { status: response.status, headers: out });
    }
    return new Response(response.body, { status: response.status, headers: out });
  }

  return handlerOf(app);
}
