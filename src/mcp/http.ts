import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { matchesIfNoneMatch, strongEtag } from "../api/etag.ts";
import { readCapped } from "../http/read-capped.ts";
import { policyField, quotaHeaders } from "../limits/headers.ts";
import { QuotaStoreUnavailable, type Limiter } from "../limits/limiter.ts";
import { policies } from "../limits/policies.ts";
import { authorize, type Verifier } from "../oauth/protect.ts";
import { jsonBody } from "../resources/json.ts";
import { prefersEventStream, sdkAccept } from "./accept.ts";
import { scopesNeeded } from "./auth-gate.ts";
import { rpcError, type TransportError } from "./errors.ts";
import { checkMessage } from "./json-rpc.ts";
import { hostsOf } from "./origins.ts";
import { maxMcpBodyBytes, serverCardMediaType } from "./constants.ts";
import { requestedPath } from "../http/emulator-retry.ts";
import { serverCardPath } from "../paths.ts";

export interface McpHandlerOptions {
  baseUrl: string;
  /** Origins a browser may call from (see origins.ts); requests without an Origin header are not browsers and pass. */
  allowedOrigins: string[];
  limiter: Limiter;
  verifier: Verifier;
  /** A fresh server for each request (stateless transport). */
  createServer: () => McpServer;
  /** The server card, the same document the build writes to /.well-known/mcp/server-card.json. */
  card: object;
  log?: (message: string) => void;
  /** Under netlify dev only: the emulator retries a 403 or 404 at `/mcp.html` and the like (see decisions). */
  emulatorRetries?: boolean;
}

export interface McpRequestContext {
  /** The client's address as the platform saw the connection. */
  ip: string;
}

const cardCors = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET",
  "Access-Control-Allow-Headers": "Content-Type, If-None-Match",
  "Access-Control-Expose-Headers": "ETag, RateLimit, RateLimit-Policy",
};

const isOutage = (error: unknown) => error instanceof QuotaStoreUnavailable;

/** /mcp (Streamable HTTP, stateless) and /mcp/server-card, in front of the SDK: quota, body limit, Origin, auth. */
export function createMcpHandler(options: McpHandlerOptions) {
  const { baseUrl, allowedOrigins, limiter, verifier, log = console.error } = options;
  const cardText = jsonBody(options.card);
  let cardEtag: Promise<string> | undefined;
  let warnedOutage = false;

  return async function handle(request: Request, context: McpRequestContext): Promise<Response> {
    const pathname = new URL(request.url).pathname;
    const path = options.emulatorRetries ? requestedPath(pathname) : pathname;

    let quota: Record<string, string>;
    try {
      // An emulator retry follows a request that was already counted: report the quota, never count it twice.
      const result =
        path !== pathname ? { ...(await limiter.peek("mcp", context.ip)), allowed: true } : await limiter.consume("mcp", context.ip);
      quota = quotaHeaders(result);
      if (!result.allowed)
        return rpcError(baseUrl, "rate_limited", {
          headers: quota,
          detail: `This client IP has used its ${policies.mcp.quota} requests for the current ${policies.mcp.windowSeconds}-second window; retry after ${quota["Retry-After"]} seconds.`,
        });
    } catch (error) {
      quota = { "RateLimit-Policy": policyField("mcp") };
      if (!isOutage(error)) {
        log(`quota store error, /mcp refused: ${String(error)}`);
        return rpcError(baseUrl, "service_unavailable", { headers: { ...quota, "Retry-After": "30" } });
      }
      if (!warnedOutage) log(`quota store unreachable, /mcp served without quota enforcement: ${String(error)}`);
      warnedOutage = true;
    }
    const fail = (code: TransportError, extra: { id?: string | number | null; detail?: string; headers?: Record<string, string> } = {}) =>
      rpcError(baseUrl, code, { ...extra, headers: { ...quota, ...extra.headers } });

    if (path === serverCardPath) {
      if (request.method !== "GET" && request.method !== "HEAD")
        return fail("method_not_allowed", { detail: "The server card answers GET.", headers: { Allow: "GET, HEAD" } });
      cardEtag ??= strongEtag(new TextEncoder().encode(cardText).buffer as ArrayBuffer);
      const etag = await cardEtag;
      const headers = { ...cardCors, ...quota, "Content-Type": serverCardMediaType, "Cache-Control": "public, max-age=3600", ETag: etag };
      if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
      return new Response(request.method === "HEAD" ? null : cardText, { headers });
    }

    // GET would open a standalone event stream that a stateless function can only hold until it times out.
    if (request.method !== "POST") return fail("method_not_allowed", { headers: { Allow: "POST" } });

    const origin = request.headers.get("origin");
    if (origin !== null && !allowedOrigins.includes(origin))
      return fail("forbidden_origin", { detail: `Origin ${origin} is not allowed.` });

    const bytes = await readCapped(request, maxMcpBodyBytes);
    if (bytes === undefined) return fail("payload_too_large", { detail: `The body must be at most ${maxMcpBodyBytes} bytes.` });
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return fail("parse_error");
    }
    const messages: Record<string, unknown>[] = [];
    for (const checked of (Array.isArray(body) ? body : [body]).map(checkMessage)) {
      if (!checked.ok) return fail("invalid_request", { id: Array.isArray(body) ? null : checked.id });
      messages.push(checked.message);
    }
    body = Array.isArray(body) ? messages : messages[0];

    const gate = scopesNeeded(body);
    let authInfo: { token: string; clientId: string; scopes: string[] } | undefined;
    if (gate.scopes.length > 0 || request.headers.has("authorization")) {
      const auth = await authorize(verifier, request, baseUrl, "mcp", gate.scopes);
      if (!auth.ok) return fail(auth.code, { id: gate.id, detail: auth.detail, headers: { "WWW-Authenticate": auth.challenge } });
      const token =
        request.headers
          .get("authorization")
          ?.replace(/^Bearer +/i, "")
          .trim() ?? "";
      authInfo = { token, clientId: auth.clientId, scopes: auth.scopes };
    }

    const stream = prefersEventStream(request.headers.get("accept"));
    const headers = new Headers(request.headers);
    headers.set("accept", sdkAccept);
    const forwarded = new Request(request.url, { method: "POST", headers });

    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
      enableDnsRebindingProtection: true,
      allowedHosts: hostsOf(allowedOrigins),
      allowedOrigins,
    });
    const server = options.createServer();
    await server.connect(transport);
    const response = await transport.handleRequest(forwarded, { parsedBody: body, authInfo });
    // A JSON answer is complete; an event stream closes itself once the response is written.
    if (!stream) await server.close();
    const out = new Headers(response.headers);
    for (const [name, value] of Object.entries(quota)) out.set(name, value);
    if (!out.has("cache-control")) out.set("Cache-Control", "no-store");
    const id = Array.isArray(body) ? null : (body as { id?: string | number }).id;
    if (response.status >= 400 && id !== undefined && id !== null) {
      // The SDK refuses some requests at the transport (an unsupported MCP-Protocol-Version, say) with a null id;
      // the request was read, so its error answers its id.
      const error = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { id?: unknown } | undefined;
      if (error && typeof error === "object")
        return Response.json({ ...error, id: error.id ?? id }, { status: response.status, headers: out });
    }
    return new Response(response.body, { status: response.status, headers: out });
  };
}
