import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { loopbackHostNames } from "./redirect-uri.ts";

/*
 * Fetching a URL a stranger gave us (a client ID metadata document) without letting them point us at our own
 * network: every address the name resolves to must be public, the connection goes to an address that was checked
 * (no second DNS answer can swap it), no redirects are followed, and size and time are capped.
 */

/**
 * An address as ipaddr.js classifies it; only the canonical notations Node accepts are addresses (not `127.1`).
 * ipaddr.js names every special-purpose range (RFC 6890 and its successors: private, loopback, link-local,
 * documentation, benchmarking, 6to4, Teredo, NAT64, ORCHID, ...), and `process` judges IPv4-mapped IPv6
 * (`::ffff:10.0.0.1` in any spelling) as the IPv4 address it maps.
 */
const classify = (address: string) => (isIP(address) === 0 ? undefined : ipaddr.process(address));

/** Outside 2000::/3, IPv6 is special or not yet allocated (ipaddr.js calls the latter unicast): never a public host. */
const globalUnicast6 = ipaddr.IPv6.parseCIDR("2000::/3");

/** Public: ipaddr.js's plain `unicast`, and for IPv6 within the global unicast space. */
export function isPublicAddress(address: string): boolean {
  const ip = classify(address);
  if (ip === undefined || ip.range() !== "unicast") return false;
  return ip.kind() === "ipv4" || ip.match(globalUnicast6);
}

export const isLoopbackAddress = (address: string) => classify(address)?.range() === "loopback";

export class FetchRefused extends Error {
  override name = "FetchRefused";
}

/**
 * A fetch that got no answer to judge: the name did not resolve, the connection failed or broke, the time ran out, or
 * the server said it cannot answer now (5xx, 429). It is a FetchRefused, so a caller that treats every failure alike
 * still refuses it; a cache may instead keep using what it fetched before. Anything else (a private address, another
 * status, a redirect, the size, not JSON) is an answer, and stays a plain FetchRefused.
 */
export class FetchOutage extends FetchRefused {
  override name = "FetchOutage";
}

/** A URL a document or key set may be fetched from: https, or http on a loopback host in the test-only mode. */
export const fetchableScheme = (url: URL, allowLoopback: boolean) =>
  url.protocol === "https:" || (allowLoopback && url.protocol === "http:" && loopbackHostNames.has(url.hostname));

export interface GuardedFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Test-only: loopback addresses (and http) are allowed, so a test can serve documents locally. */
  allowLoopback?: boolean;
}

/** A guarded fetch's JSON, with what a cache needs from the response's header fields. */
export interface GuardedJsonResponse {
  json: unknown;
  /** `Cache-Control` as received (several field lines joined with ", "), if sent. */
  cacheControl?: string;
  /** `Age` as received, if sent. */
  age?: string;
}

/** GETs a URL as JSON under the rules above; throws FetchRefused with the reason, for the log (never for the client). */
export async function fetchJsonGuarded(target: URL, options: GuardedFetchOptions): Promise<unknown> {
  return (await fetchJsonGuardedResponse(target, options)).json;
}

/**
 * fetchJsonGuarded with the response's caching fields. A failure is a FetchOutage when no answer came (DNS, the
 * connection, the time limit, 5xx, 429), a plain FetchRefused when the answer itself is refused.
 */
export async function fetchJsonGuardedResponse(
  target: URL,
  { maxBytes, timeoutMs, allowLoopback = false }: GuardedFetchOptions,
): Promise<GuardedJsonResponse> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const addresses = await resolvePublic(target.hostname.replace(/^\[|\]$/g, ""), allowLoopback, abort.signal);
    const { text, headers } = await get(target, addresses[0]!, maxBytes, abort.signal);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new FetchRefused("the document is not JSON");
    }
    return {
      json,
      ...(headers["cache-control"] !== undefined ? { cacheControl: headers["cache-control"] } : {}),
      ...(headers.age !== undefined ? { age: headers.age } : {}),
    };
  } catch (error) {
    if (abort.signal.aborted) throw new FetchOutage(`the document did not arrive within ${timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function resolvePublic(hostname: string, allowLoopback: boolean, signal: AbortSignal) {
  const addresses = isIP(hostname)
    ? [{ address: hostname, family: isIP(hostname) }]
    : await Promise.race([
        lookup(hostname, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new FetchOutage("DNS timed out")))),
      ]).catch((error: unknown) => {
        if (error instanceof FetchRefused) throw error;
        throw new FetchOutage(`the host ${hostname} does not resolve`);
      });
  if (addresses.length === 0) throw new FetchOutage(`the host ${hostname} does not resolve`);
  for (const { address } of addresses) {
    if (!isPublicAddress(address) && !(allowLoopback && isLoopbackAddress(address))) {
      throw new FetchRefused(`the host ${hostname} resolves to a private or reserved address`);
    }
  }
  return addresses;
}

/** A 5xx or 429: the server is there but cannot answer now (RFC 9110 §15.6, RFC 6585 §4). */
const unavailable = (status: number) => status >= 500 || status === 429;

function get(
  target: URL,
  pinned: { address: string; family: number },
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ text: string; headers: http.IncomingHttpHeaders }> {
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      target,
      {
        signal,
        headers: { accept: "application/json", "user-agent": "frontdoor-oauth (client metadata fetch)" },
        // The connection goes to the address that was checked, whatever DNS says now (no rebinding).
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
          else callback(null, pinned.address, pinned.family);
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          const redirect = status >= 300 && status < 400;
          const why = redirect ? "redirects are not followed" : `the server answered ${status}`;
          reject(unavailable(status) ? new FetchOutage(why) : new FetchRefused(why));
          return;
        }
        if (Number(response.headers["content-length"] ?? 0) > maxBytes) {
          response.destroy();
          reject(new FetchRefused(`the document is larger than ${maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            reject(new FetchRefused(`the document is larger than ${maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        response.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8"), headers: response.headers }));
        response.on("error", () => reject(new FetchOutage("the document could not be read")));
      },
    );
    request.on("error", (error) => reject(error instanceof FetchRefused ? error : new FetchOutage(`the document could not be fetched`)));
  });
}
