import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

/**
 * Fetching a URL a stranger gave us (a client ID metadata document) without letting them point us at our own
 * network: every address the name resolves to must be public, the connection goes to an address that was checked
 * (no second DNS answer can swap it), no redirects are followed, and size and time are capped.
 */
const reserved = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  reserved.addSubnet(net, prefix, "ipv4");
}
// IPv6: only global unicast (2000::/3) can be public; within it, Teredo, ORCHID, documentation and 6to4 embed or
// stand for other addresses. Everything outside 2000::/3 (loopback, unique-local, link-local, multicast, mapped,
// NAT64) is refused below.
const reservedGlobal6 = new BlockList();
for (const [net, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
] as const) {
  reservedGlobal6.addSubnet(net, prefix, "ipv6");
}
const globalUnicast6 = new BlockList();
globalUnicast6.addSubnet("2000::", 3, "ipv6");

/** `::ffff:10.0.0.1` (in any spelling) is the IPv4 address it maps; other IPv6 addresses stay as they are. */
export function unmapIPv4(address: string): string {
  if (isIP(address) !== 6) return address;
  const normal = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(normal);
  if (!mapped) return normal;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

export function isPublicAddress(address: string): boolean {
  const ip = unmapIPv4(address);
  const family = isIP(ip);
  if (family === 4) return !reserved.check(ip, "ipv4");
  if (family === 6) return globalUnicast6.check(ip, "ipv6") && !reservedGlobal6.check(ip, "ipv6");
  return false;
}

export const isLoopbackAddress = (address: string) => {
  const ip = unmapIPv4(address);
  return ip === "::1" || (isIP(ip) === 4 && ip.startsWith("127."));
};

export class FetchRefused extends Error {
  override name = "FetchRefused";
}

export interface GuardedFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Test-only: loopback addresses (and http) are allowed, so a test can serve documents locally. */
  allowLoopback?: boolean;
}

/** GETs a URL as JSON under the rules above; throws FetchRefused with the reason, for the log (never for the client). */
export async function fetchJsonGuarded(target: URL, { maxBytes, timeoutMs, allowLoopback = false }: GuardedFetchOptions): Promise<unknown> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const addresses = await resolvePublic(target.hostname.replace(/^\[|\]$/g, ""), allowLoopback, abort.signal);
    const text = await get(target, addresses[0]!, maxBytes, abort.signal);
    try {
      return JSON.parse(text);
    } catch {
      throw new FetchRefused("the document is not JSON");
    }
  } catch (error) {
    if (abort.signal.aborted) throw new FetchRefused(`the document did not arrive within ${timeoutMs} ms`);
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
        new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new FetchRefused("DNS timed out")))),
      ]).catch((error: unknown) => {
        if (error instanceof FetchRefused) throw error;
        throw new FetchRefused(`the host ${hostname} does not resolve`);
      });
  if (addresses.length === 0) throw new FetchRefused(`the host ${hostname} does not resolve`);
  for (const { address } of addresses) {
    if (!isPublicAddress(address) && !(allowLoopback && isLoopbackAddress(address))) {
      throw new FetchRefused(`the host ${hostname} resolves to a private or reserved address`);
    }
  }
  return addresses;
}

function get(target: URL, pinned: { address: string; family: number }, maxBytes: number, signal: AbortSignal): Promise<string> {
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
        if (response.statusCode !== 200) {
          response.resume();
          const redirect = response.statusCode && response.statusCode >= 300 && response.statusCode < 400;
          reject(new FetchRefused(redirect ? "redirects are not followed" : `the server answered ${response.statusCode}`));
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
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.on("error", () => reject(new FetchRefused("the document could not be read")));
      },
    );
    request.on("error", (error) => reject(error instanceof FetchRefused ? error : new FetchRefused(`the document could not be fetched`)));
  });
}
