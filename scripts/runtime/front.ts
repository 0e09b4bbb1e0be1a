import {
  Agent,
  createServer,
  METHODS,
  request as forward,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { posix } from "node:path";
import { pipeline, type Duplex } from "node:stream";
import { clientAddressHeader, handedOnHeader, refusalStatusHeader, restoredStatus } from "../../src/http/netlify-dev.ts";
import { platformFiles } from "../../src/paths.ts";
import { callsAFunction, FunctionCalls } from "./function-calls.ts";
import {
  crashed,
  functionTimeoutSeconds,
  gaveUp,
  methodRefusal,
  noHost,
  notFound,
  ownedByDoor,
  payloadTooLarge,
  siteAllow,
  tooManyWaiting,
  unreachable,
} from "./front-refusals.ts";

/**
 * npm start's front: serves PORT and hands every request to netlify dev on its internal port (behind-front.ts moved it
 * there), its body whole (see netlifyDevBodyLimit), and streams every answer back. It marks every request as handed on,
 * so a function's or an edge function's 403 or 404 reaches netlify dev as a 200 carrying the real status, which netlify
 * dev does not call again at `.html` and the like (src/http/netlify-dev.ts), and it puts the real status back. A
 * client's own copy of either header is dropped. It hands netlify dev only so many function calls at once
 * (function-calls.ts), and answers netlify dev's own 500s itself (answerFailed).
 * Part of the local runtime only: production has no front.
 */

/** Hop-by-hop headers (RFC 9110, 7.6.1): each connection has its own, so neither side's are passed on. */
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);
/** Beside the client's address the front hands on: its proof (see ClientAddresses). */
const clientAddressProofHeader = "x-frontdoor-dev-client-address-proof";
const internal = new Set([handedOnHeader, refusalStatusHeader, clientAddressHeader, clientAddressProofHeader]);

/** Raw header pairs without hop-by-hop headers (those the Connection header names too), the dev-only ones and `dropped`. */
function passedOn(raw: string[], dropped: ReadonlySet<string>): string[] {
  const names = (i: number) => raw[i]!.toLowerCase();
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (names(i) === "connection") for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = names(i);
    if (!hopByHop.has(name) && !named.has(name) && !internal.has(name) && !dropped.has(name)) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

export interface Front {
  server: Server;
  close(): Promise<void>;
}

/**
 * Listens on `port` (every interface, as netlify dev does) in front of netlify dev at 127.0.0.1:`internalPort`, handing it
 * function calls as `calls` allows.
 */
export async function startFront(port: number, internalPort: number, calls = new FunctionCalls()): Promise<Front> {
  const agent = new Agent({ keepAlive: true });
  const addresses = new ClientAddresses();
  const server = createServer((req, res) => void handOn(req, res, internalPort, agent, calls, addresses));
  server.on("clientError", (error: ClientError, socket: Duplex) => void answerUnparsed(error, socket));
  server.listen({ port });
  await once(server, "listening");
  return {
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

const pathAndRest = (url: string): [path: string, rest: string] => {
  const at = url.search(/[?#]/);
  return at < 0 ? [url, ""] : [url.slice(0, at), url.slice(at)];
};

/**
 * netlify dev's own servers decode a request's path before any function sees it, and an escape that does not decode (a
 * malformed `%zz`, or bytes that are not UTF-8 such as `%ff`) makes them answer with their stack (its functions server)
 * or stop altogether (its redirect rules), where Netlify hands the path on as it is. Such a path is handed on with every
 * `%` escaped as `%25`: the function then sees a well-formed path that still names nothing, as production's would.
 */
export function wellFormedPath(url: string): string {
  const [path, rest] = pathAndRest(url);
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    return `${path.replaceAll("%", "%25")}${rest}`;
  }
}

/**
 * netlify dev's static server (@fastify/static) refuses a path that decodes to a backslash with a JSON 403 of its own
 * (FST_STATIC_FORBIDDEN_PATH), where Netlify's CDN, which has no such file, answers the site's 404 page. Off the doors'
 * paths (functions and edge functions take theirs as sent), such an escape is handed on with its % escaped: the static
 * server looks for a file by that name, finds none, and answers the 404 page.
 */
export function withoutEscapedBackslash(url: string): string {
  const [path, rest] = pathAndRest(url);
  return ownedByDoor(path) ? url : `${path.replace(/%5c/gi, "%255C")}${rest}`;
}

/**
 * Netlify reads the build's files for the platform (`_headers`, `_redirects`) and serves none of them; netlify dev's static
 * server serves them as any file. A path that names one, however it is spelt (escaped, with empty or `.` segments, a
 * trailing slash, in another case), is handed on one segment below the file, which names no file (a file has nothing
 * below it): the site's 404 page answers, or the twins' 404 twin, as on Netlify.
 */
const platformFileNames = new Set(Object.values(platformFiles).map((file) => file.toLowerCase()));
export function namesPlatformFile(path: string): boolean {
  try {
    return platformFileNames.has(
      posix
        .normalize(decodeURIComponent(path))
        .replace(/(?<=.)\/+$/, "")
        .toLowerCase(),
    );
  } catch {
    return false;
  }
}
export const withoutPlatformFile = (url: string) => {
  const [path, rest] = pathAndRest(url);
  return namesPlatformFile(path) ? `${path.replace(/\/+$/, "")}/not-a-file${rest}` : url;
};

/**
 * netlify dev's proxy builds a URL of every request's Host header, and one that names no host (`[::1`) is an exception
 * nothing catches: a 500 that names an edge function, then the end of netlify dev. Netlify's edge answers such a request
 * itself, before any door; so does the front, 400 in plain words.
 */
const namesAHost = (host: string | undefined) => {
  try {
    return host !== undefined && new URL(`http://${host}`).host !== "";
  } catch {
    return false;
  }
};

/**
 * JSON has no charset parameter (RFC 8259 §11: it is always UTF-8, and a charset "has no effect"), and the doors read it
 * as UTF-8 whatever one says. netlify dev's body parser decodes by it first and answers one it does not know with its own
 * HTML page (`UnsupportedMediaTypeError`), where Netlify hands the body on as sent. So a JSON body's type is handed on
 * without its parameters.
 */
/**
 * The Markdown twins' edge function runs for every request whose Accept names text/markdown and passes on all but GET
 * and HEAD. Netlify then runs the function at the path; netlify dev serves the path as a static file instead, so the
 * contact form posted with such an Accept was a 405. A write is handed on without asking for Markdown, which no function
 * answers in anyway.
 */
export const withoutMarkdown = (accept: string) =>
  accept
    .split(",")
    .filter((range) => range.split(";")[0]!.trim().toLowerCase() !== "text/markdown")
    .join(",") || "*/*";

/**
 * netlify dev's proxy parses every request's Content-Type (the `content-type` package) and ends on one that does not
 * parse (`;;;`), on any path, even a GET's. The front hands on what parses: a type that is no media type as
 * application/octet-stream (the door then refuses it as it refuses any body of another type), parameters that are not
 * RFC 9110's `token=value` dropped, and JSON's dropped (below).
 */
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const mediaTypePattern = new RegExp(`^${token}/${token}$`);
const parameterPattern = new RegExp(`^\\s*${token}=(?:${token}|"(?:[^"\\\\]|\\\\.)*")\\s*$`);
export function mendedContentType(contentType: string): string {
  const [type = "", ...parameters] = contentType.split(";");
  if (!mediaTypePattern.test(type.trim())) return "application/octet-stream";
  if (!parameters.every((p) => parameterPattern.test(p))) return type.trim();
  return withoutJsonParameters(contentType);
}

export function withoutJsonParameters(contentType: string): string {
  const type = contentType.split(";")[0]!.trim();
  return /^application\/(?:[\w.+-]+\+)?json$/i.test(type) ? type : contentType;
}

/**
 * netlify dev's static server looks every path up as a file first, and answers one that cannot be a file name (a segment
 * over 255 bytes, the most a file system takes) with a JSON 403 of its own (FST_STATIC_FORBIDDEN_PATH), where Netlify's
 * CDN finds nothing. On a door's path the door answers not_found; on the site's, the path is handed on cut short, which
 * names no file either, and the site's 404 page answers.
 */
const longestFileName = 255;
export const tooLongForAFile = (path: string) => path.split("/").some((segment) => Buffer.byteLength(segment) > longestFileName);
const cutShort = (path: string) => path.slice(0, 200).replace(/%[0-9a-f]?$/i, "");

/**
 * A request body's Content-Encoding is not handed on: netlify dev inflates such a body itself and answers one it cannot
 * inflate with its stack, where Netlify hands the body to the function as sent, which reads it as JSON (or refuses it).
 * Its Content-Length is the front's own (the body is handed on whole). And netlify dev's servers sign every answer
 * `X-Powered-By: Express`, which no function and no Netlify answer says.
 */
const notHandedOn = new Set(["content-encoding", "content-length"]);
const notAnswered = new Set(["x-powered-by"]);

/**
 * netlify dev's request listener (netlify-cli's dist/utils/proxy.js) first awaits every body but a GET's, HEAD's or
 * OPTIONS's whole (at most 6,000,000 bytes, within 30 s), and nothing catches that promise: a client that goes away
 * mid-body, a larger body or a slower one is an unhandled rejection that ends netlify dev, and the front then has no one
 * to hand anything on to. So the front reads the body first, up to that limit, and hands it on in one piece or not at
 * all. Netlify hands functions at most 6 MB too.
 */
export const netlifyDevBodyLimit = 6_000_000;

/**
 * netlify dev's static server answers a file (or its 405) without reading the request's body, and its proxy, still
 * writing a body of a few megabytes, then fails and writes its answer's headers a second time: an uncaught error that
 * ends netlify dev. A body means nothing to a GET or HEAD (RFC 9110 §9.3.1) or to a path of the site's files, so none is
 * handed on there; the contact form's POST is handed its body.
 */
const takesNoBody = (method: string, site: boolean) => method === "GET" || method === "HEAD" || (site && method !== "POST");

/** The body whole; "gone" when the client went away first; "too large" past `limit` bytes (the rest is discarded). */
function wholeBody(req: IncomingMessage, limit: number): Promise<Buffer | "gone" | "too large"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const take = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= limit) return void chunks.push(chunk);
      req.off("data", take).resume();
      resolve("too large");
    };
    req.on("data", take).once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", () => resolve("gone")).once("close", () => resolve("gone"));
  });
}

/** The URL a request names, on the host it names (the doors' formats link to the origin they were asked at). */
function requestUrl(target: string, host: string | undefined): URL {
  try {
    return new URL(target, `http://${host}`);
  } catch {
    return new URL(target, "http://localhost");
  }
}

/** Sends an answer the front made itself; `close` when the rest of the request was not read. */
async function answerWith(res: ServerResponse, made: Response, { close = false } = {}) {
  const body = Buffer.from(await made.arrayBuffer());
  const headers = { ...Object.fromEntries(made.headers), "Content-Length": String(body.length) };
  res.writeHead(made.status, close ? { ...headers, Connection: "close" } : headers).end(body);
}

/**
 * Methods no function or edge function can be handed, answered as their door answers a method it does not take (405 in
 * its format, with its Allow; production's answer is Netlify's own, see docs/decisions.md): netlify dev builds a fetch
 * Request for each call, which refuses TRACE (and TRACK), so lambda-local and the edge bootstrap answered 500 with
 * their stack and this machine's paths; Node's parser, netlify dev's and the front's, refuses any method it does not
 * know (TRACK, FOO) with a bare 400 before a listener sees it, so those are read from the bytes it gave up on.
 */
type ClientError = NodeJS.ErrnoException & { rawPacket?: Buffer };
const requestLine = /^([!#$%&'*+.^`|~\w-]+) (\S+) HTTP\/1\.[01]\r?\n/;

async function answerUnparsed(error: ClientError, socket: Duplex) {
  const packet = error.code === "HPE_INVALID_METHOD" ? String(error.rawPacket ?? "") : "";
  const [, method, target] = requestLine.exec(packet) ?? [];
  if (!socket.writable) return void socket.destroy();
  // Only a method Node does not know is one to answer as a method: bytes after a request that sent a body without saying
  // so (a GET with no Content-Length) begin with no method at all, though the packet still holds that request's line.
  if (!method || !target || METHODS.includes(method))
    return void socket.end(`HTTP/1.1 ${parserRefusals[error.code ?? ""] ?? "400 Bad Request"}\r\nConnection: close\r\n\r\n`);
  const made = await methodRefusal(method, requestUrl(target, /\nhost:[ \t]*([^\r\n]*)/i.exec(packet)?.[1]));
  const body = Buffer.from(await made.arrayBuffer());
  const head = [`HTTP/1.1 ${made.status} ${STATUS_CODES[made.status]}`, ...[...made.headers].map(([name, value]) => `${name}: ${value}`)];
  socket.end(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]));
}

/** Node's own answers to the other errors of its parser, which a clientError listener takes over. */
const parserRefusals: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

/**
 * netlify dev's own 500s: a function's call that passed lambda-local's limit (its TimeoutError, `Task timed out after 30.00
 * seconds`, with the stack and this machine's paths, as an HTML page when the client takes HTML), or a function or edge
 * function that threw past its door. Only a 500 is read whole before it is answered (its first bytes: the report is a
 * page of about 10 kB); every other answer streams. A HEAD's 500 has no body to read: it passed the limit if it took that
 * long, since the limit runs from the start of the function's handler, after the front handed the call on.
 */
const failureHeadBytes = 64 * 1024;
export const gaveUpOn = (report: string, method: string, elapsedMs: number) =>
  report.includes("Task timed out after") || (method === "HEAD" && report === "" && elapsedMs >= functionTimeoutSeconds * 1000);

async function answerFailed(answer: IncomingMessage, res: ServerResponse, url: URL, method: string, sentAt: number) {
  let report = "";
  answer.setEncoding("utf8");
  try {
    for await (const chunk of answer as AsyncIterable<string>) if (report.length < failureHeadBytes) report += chunk;
  } catch {
    // netlify dev ended mid-answer, or the client went away (and its call with it).
    if (!res.destroyed) await answerWith(res, await unreachable(url, "its answer was cut short"));
    return;
  }
  await answerWith(res, gaveUpOn(report, method, Date.now() - sentAt) ? await gaveUp(url) : crashed());
}

/** The client's address as Netlify would give it: IPv4 without its IPv6-mapped prefix. */
const clientAddressOf = (remote: string | undefined) => remote?.replace(/^::ffff:(?=\d+\.)/i, "") ?? "";

/**
 * The address the front hands on with each request, and its proof: an HMAC under a key of this front's alone. What an
 * edge function hands on with `next()` comes back through the front from netlify dev's own connection (127.0.0.1), with
 * the headers of the request the edge function was given: there the proven address is the client's, and kept. An
 * address a client sends has no proof (the front drops both headers), so the socket's is taken.
 */
class ClientAddresses {
  readonly #key = randomBytes(32);

  #proof(address: string): Buffer {
    return createHmac("sha256", this.#key).update(address).digest();
  }

  /** The request's client: the proven address it carries, else the one it connected from. */
  of(req: IncomingMessage): string {
    const carried = req.headers[clientAddressHeader];
    const proof = req.headers[clientAddressProofHeader];
    if (typeof carried === "string" && typeof proof === "string") {
      const given = Buffer.from(proof, "base64url");
      const expected = this.#proof(carried);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return carried;
    }
    return clientAddressOf(req.socket.remoteAddress);
  }

  /** The header pairs that hand `address` on. */
  headers(address: string): string[] {
    return [clientAddressHeader, address, clientAddressProofHeader, this.#proof(address).toString("base64url")];
  }
}

async function handOn(
  req: IncomingMessage,
  res: ServerResponse,
  internalPort: number,
  agent: Agent,
  calls: FunctionCalls,
  addresses: ClientAddresses,
) {
  const body = await wholeBody(req, netlifyDevBodyLimit);
  if (body === "gone") return;
  if (!namesAHost(req.headers.host)) return answerWith(res, noHost(), { close: body === "too large" });
  const url = requestUrl(req.url ?? "/", req.headers.host);
  if (body === "too large") return answerWith(res, await payloadTooLarge(url, netlifyDevBodyLimit), { close: true });
  if (req.method === "TRACE") return answerWith(res, await methodRefusal(req.method, url));
  const owned = ownedByDoor(url.pathname);
  const site = !owned && !url.pathname.startsWith("/.netlify/");
  if (site && !["OPTIONS", ...siteAllow(url.pathname).split(", ")].includes(req.method!))
    return answerWith(res, await methodRefusal(req.method!, url));
  const handedBody = takesNoBody(req.method!, site) ? Buffer.alloc(0) : body;
  let path = withoutPlatformFile(withoutEscapedBackslash(wellFormedPath(req.url ?? "/")));
  if (tooLongForAFile(pathAndRest(path)[0])) {
    if (owned) return answerWith(res, await notFound(url));
    path = cutShort(pathAndRest(path)[0]);
  }
  const headers = passedOn(req.rawHeaders, notHandedOn);
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i]!.toLowerCase() === "content-type") headers[i + 1] = mendedContentType(headers[i + 1]!);
    else if (headers[i]!.toLowerCase() === "accept" && !["GET", "HEAD"].includes(req.method!))
      headers[i + 1] = withoutMarkdown(headers[i + 1]!);
  // netlify dev gives every function and edge function the front's own address: the client's goes with the request.
  headers.push(handedOnHeader, "1", ...addresses.headers(addresses.of(req)));
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) {
    headers.push("Content-Length", String(handedBody.length));
  }
  // Function calls wait their turn (function-calls.ts); an edge function's `next()` comes back through the front, marked.
  const turn = callsAFunction(req.method!, url.pathname, req.headers["x-nf-passthrough"] !== undefined) ? await calls.take(res) : undefined;
  if (turn === "gone") return;
  if (turn === "full") return answerWith(res, await tooManyWaiting(url, calls.counts.waiting));
  const sentAt = Date.now();
  const upstream = forward({ host: "127.0.0.1", port: internalPort, method: req.method, path, headers, agent }, (answer) => {
    answer.once("end", () => turn?.release());
    if (answer.statusCode === 500) return void answerFailed(answer, res, url, req.method!, sentAt);
    res.writeHead(
      restoredStatus(answer.statusCode ?? 502, answer.headers[refusalStatusHeader] as string | undefined),
      passedOn(answer.rawHeaders, notAnswered),
    );
    pipeline(answer, res, () => undefined);
  });
  upstream.once("close", () => turn?.release());
  upstream.on("error", async (error: NodeJS.ErrnoException) => {
    if (res.headersSent) return void res.destroy();
    await answerWith(res, await unreachable(url, error.code ?? "no answer"));
  });
  // A client gone before its answer ends: netlify dev's answer is dropped too (never a finished one's pooled socket).
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.end(handedBody);
}
