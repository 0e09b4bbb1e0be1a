import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metadataDocumentLimits, refusedDocumentDescription, resolveMetadataDocumentClient } from "../../src/oauth/cimd.ts";
import { sha256 } from "../../src/oauth/clients.ts";
import { conditionOf } from "../../src/http/conditions.ts";
import { findClient } from "../../src/oauth/server-options.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { quotaHeaders } from "../../src/limits/headers.ts";
import type { PolicyName } from "../../src/limits/policies.ts";
import {
  FetchOutage,
  FetchRefused,
  fetchJsonGuarded,
  fetchJsonGuardedResponse,
  isLoopbackAddress,
  isPublicAddress,
} from "../../src/oauth/ssrf.ts";
import { inProcessOAuthServer } from "../support/oauth-server.ts";
import { countedFor } from "../support/quota-count.ts";
import { patience } from "../support/patience.ts";

/** Client ID metadata documents served from loopback (the test mode), resolved in-process over the local store. */
let server: Awaited<ReturnType<typeof inProcessOAuthServer>>;
let documentServer: Server;
let origin: string;
let closedOrigin: string;
/**
 * What the document server answers at a path: a status, a body and header fields, the body held back `delayMs` after
 * the header (a server slowing down), or no answer at all: the connection closed at once, or left hanging.
 */
interface Served {
  status?: number;
  body: string;
  headers?: Record<string, string | string[]>;
  delayMs?: number;
  fail?: "close" | "hang";
}
const documents = new Map<string, Served>();
const hits = new Map<string, number>();

beforeAll(async () => {
  server = await inProcessOAuthServer();
  documentServer = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/silent.json") return; // never answers: the fetch times out
    const doc: Served = documents.get(path) ?? { status: 404, body: "" };
    if (doc.fail === "hang") return;
    if (doc.fail === "close") return void req.socket.destroy();
    res.writeHead(doc.status ?? 200, { "content-type": "application/json", ...doc.headers });
    if (!doc.delayMs) return void res.end(doc.body);
    res.write(doc.body.slice(0, 1));
    setTimeout(() => req.socket.destroyed || res.end(doc.body.slice(1)), doc.delayMs);
  });
  await new Promise<void>((r) => documentServer.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((r) => closed.close(r));
});
afterAll(async () => {
  documentServer.closeAllConnections();
  await new Promise((r) => documentServer.close(r));
  await server?.close();
});

let addresses = 0;
const newIp = () => `198.51.100.${++addresses}`;

interface ResolveOptions {
  allowLoopback?: boolean;
  ip?: string;
  log?: (line: string) => void;
  /** The cache's clock; real time by default. */
  now?: () => number;
  redis?: Redis;
}

function resolve(
  clientId: string,
  { allowLoopback = true, ip = newIp(), log = () => {}, now, redis = server.options.redis }: ResolveOptions = {},
) {
  // What the OAuth door counts for a request from `ip` (countAlso in src/http/quota.ts).
  const count = async (policy: PolicyName) => {
    const result = await server.options.limiter.consume(policy, ip);
    if (!result.allowed) throw new Refusal("rate_limited", { headers: quotaHeaders(result) });
    return result;
  };
  return resolveMetadataDocumentClient(clientId, { redis, count, allowLoopback, log, ...(now ? { now } : {}) });
}
const publish = (path: string, body: object | string, extra: Omit<Served, "body"> = {}) =>
  documents.set(path, { body: typeof body === "string" ? body : JSON.stringify(body), ...extra });
const validDocument = (id: string, extra: object = {}) => ({
  client_id: id,
  client_name: "Doc client",
  redirect_uris: ["http://127.0.0.1/cb"],
  token_endpoint_auth_method: "none",
  ...extra,
});

/** A refusal as the token endpoint answers it: its OAuth error, description and status; anything else as it is. */
const answerOf = (e: unknown) => {
  if (!(e instanceof Refusal)) return e;
  const { oauth, status } = conditionOf(e.condition);
  return { error: oauth, description: e.options.detail, status };
};

/** The refusal every document gets, and the one log line that tells why. */
async function refusal(clientId: string, allowLoopback = true) {
  const lines: string[] = [];
  const error: unknown = await resolve(clientId, { allowLoopback, log: (line) => lines.push(line) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, clientId).toBeInstanceOf(Refusal);
  const { error: code, description, status } = answerOf(error) as { error: string; description: string; status: number };
  expect(lines, clientId).toHaveLength(1);
  // The URL as a JSON string (so the line stays one line), cut to a bounded length.
  expect(lines[0]).toContain(JSON.stringify(clientId.slice(0, 80)).slice(0, -1));
  return { answer: { code, description, status }, reason: lines[0]! };
}

describe("client ID metadata documents", () => {
  it("accepts a document whose client_id is its own URL, and caches it", async () => {
    const id = `${origin}/ok.json`;
    publish("/ok.json", validDocument(id));
    expect(await resolve(id)).toMatchObject({ client_id: id, client_name: "Doc client", metadata_document: true });
    documents.delete("/ok.json");
    expect(await resolve(id)).toMatchObject({ client_name: "Doc client" });
    expect(hits.get("/ok.json")).toBe(1);
  });

  /** Documents served from loopback, each refused for its own reason (as the log says it). */
  const served: [path: string, document: ((id: string) => object | string) | undefined, reason: RegExp, status?: number][] = [
    ["/missing.json", undefined, /answered 404/],
    ["/moved.json", () => "", /redirects are not followed/, 302],
    ["/html.json", () => "<html>", /not JSON/],
    ["/array.json", () => "[]", /not a JSON object/],
    ["/big.json", (id) => validDocument(id, { pad: "x".repeat(6000) }), /larger than 5120/],
    ["/mismatch.json", () => validDocument(`${origin}/other.json`), /not its own URL/],
    ["/secret.json", (id) => validDocument(id, { client_secret: "s" }), /client secret/],
    ["/js.json", (id) => validDocument(id, { redirect_uris: ["javascript:alert(1)"] }), /metadata is invalid/],
    // A private-use scheme the operating system owns, or one that is not a reversed domain name: the same rules as registration.
    [
      "/search-ms.json",
      (id) => validDocument(id, { application_type: "native", redirect_uris: ["search-ms:query=invoice"] }),
      /metadata is invalid: .*belongs to the operating system/,
    ],
    [
      "/no-period.json",
      (id) => validDocument(id, { application_type: "native", redirect_uris: ["http://127.0.0.1/cb", "myapp://oauth/callback"] }),
      /metadata is invalid: .*reversed, with at least one period/,
    ],
    [
      "/m2m.json",
      (id) => validDocument(id, { grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" }),
      /token_endpoint_auth_method must be one of none, private_key_jwt/,
    ],
    ["/public-m2m.json", (id) => validDocument(id, { grant_types: ["client_credentials"] }), /client_credentials needs a client secret/],
    ["/public-keys.json", (id) => validDocument(id, { jwks_uri: `${id}.jwks` }), /public authorization_code client/],
    ["/keyless.json", (id) => validDocument(id, { token_endpoint_auth_method: "private_key_jwt" }), /exactly one of jwks_uri and jwks/],
    [
      "/two-keys.json",
      (id) => validDocument(id, { token_endpoint_auth_method: "private_key_jwt", jwks_uri: `${id}.jwks`, jwks: { keys: [{ kty: "EC" }] } }),
      /exactly one of jwks_uri and jwks/,
    ],
    [
      "/private-jwk.json",
      (id) => validDocument(id, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ kty: "EC", d: "secret" }] } }),
      /public keys only/,
    ],
    [
      "/bad-jwks-uri.json",
      (id) => validDocument(id, { token_endpoint_auth_method: "private_key_jwt", jwks_uri: "ftp://a.example/k" }),
      /jwks_uri must be/,
    ],
  ];

  it("accepts a private_key_jwt document with a jwks_uri or inline jwks, for authorization_code or client_credentials", async () => {
    const keyed = { token_endpoint_auth_method: "private_key_jwt", grant_types: ["authorization_code", "client_credentials"] };
    const byUri = `${origin}/keyed-uri.json`;
    publish("/keyed-uri.json", validDocument(byUri, { ...keyed, jwks_uri: `${origin}/keys.json` }));
    expect(await resolve(byUri)).toMatchObject({ token_endpoint_auth_method: "private_key_jwt", jwks_uri: `${origin}/keys.json` });
    const inline = `${origin}/keyed-inline.json`;
    const jwks = { keys: [{ kty: "EC", crv: "P-256", x: "x", y: "y", kid: "k1" }] };
    publish("/keyed-inline.json", validDocument(inline, { ...keyed, grant_types: ["client_credentials"], redirect_uris: [], jwks }));
    expect(await resolve(inline)).toMatchObject({ grant_types: ["client_credentials"], jwks });
  });

  it("answers every refused document the same invalid_client, and logs the reason with the URL in one line", async () => {
    const answers = new Set<string>();
    const record = async (id: string, reason: RegExp, allowLoopback = true) => {
      const refused = await refusal(id, allowLoopback);
      expect(refused.reason, id).toMatch(reason);
      expect(refused.reason).not.toContain("\n");
      answers.add(JSON.stringify(refused.answer));
    };
    // At once: the silent host and the unresolvable name each take their time limit.
    const records: Promise<void>[] = [];
    for (const [path, document, reason, status] of served) {
      if (document) publish(path, document(`${origin}${path}`), status ? { status, headers: { location: "/ok.json" } } : {});
      records.push(record(`${origin}${path}`, reason));
    }
    records.push(record(`${closedOrigin}/refused.json`, /could not be fetched/));
    records.push(record(`${origin}/silent.json`, /did not arrive within 2000 ms/));
    records.push(record("https://does-not-exist.invalid/c.json", /does not resolve|DNS timed out/));
    records.push(record("https://10.1.2.3/c.json", /private or reserved/));
    records.push(record("https://[::ffff:a00:1]/c.json", /private or reserved/));
    records.push(record(`${origin}/loopback-off.json`, /must use https/, false));
    records.push(record("https://a.example/", /needs a path/));
    records.push(record("https://a.example/x/../c.json", /normal form/));
    records.push(record("https://u:p@a.example/c.json", /user information/));
    records.push(record(`https://a.example/${"x".repeat(600)}`, /too long/));
    records.push(record("https://a.example/c.json#x", /fragment/));
    records.push(record("https://a.example/c\n.json", /normal form/));
    await Promise.all(records);
    expect([...answers]).toEqual([JSON.stringify({ code: "invalid_client", description: refusedDocumentDescription, status: 401 })]);
  });

  it("caches a refusal for a minute: the same URL again costs no fetch, no quota and no log line", async () => {
    publish("/flaky.json", "not json");
    const ip = newIp();
    await expect(resolve(`${origin}/flaky.json`, { ip })).rejects.toThrow(Refusal);
    const lines: string[] = [];
    const again = await resolve(`${origin}/flaky.json`, { ip, log: (l) => lines.push(l) }).catch(answerOf);
    expect(again).toMatchObject({ error: "invalid_client", description: refusedDocumentDescription });
    expect(hits.get("/flaky.json")).toBe(1);
    expect(lines).toEqual([]);
    expect(await countedFor(server.options.redis, "oauth-client-metadata", ip)).toBe(1);
    const ttl = await server.options.redis.ttl(`oauth:cimd:${await sha256(`${origin}/flaky.json`)}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it("counts 20 fetches an hour per client IP; a URL refused by its shape or a cached document costs nothing", async () => {
    const ip = newIp();
    publish("/cached.json", validDocument(`${origin}/cached.json`));
    await resolve(`${origin}/cached.json`, { ip });
    for (let i = 0; i < 5; i++) await expect(resolve("https://a.example/", { ip })).rejects.toThrow(Refusal);
    for (let i = 2; i <= 20; i++) {
      publish(`/n${i}.json`, validDocument(`${origin}/n${i}.json`));
      await resolve(`${origin}/n${i}.json`, { ip });
    }
    publish("/n21.json", validDocument(`${origin}/n21.json`));
    const refused = await resolve(`${origin}/n21.json`, { ip }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).options.headers).toMatchObject({
      "RateLimit-Policy": '"oauth-client-metadata";q=20;w=3600',
      "RateLimit-Remaining": "0",
    });
    expect(hits.get("/n21.json")).toBeUndefined();
    expect(await resolve(`${origin}/cached.json`, { ip })).toMatchObject({ client_name: "Doc client" });
    expect(await resolve(`${origin}/n21.json`, { ip: newIp() })).toMatchObject({ client_id: `${origin}/n21.json` });
  });

  it.each([
    ["public IPv4", ["8.8.8.8", "1.1.1.1", "93.184.215.14"]],
    ["global unicast IPv6", ["2606:4700::1111", "2a00:1450:4001:80b::200e"]],
    ["IPv4-mapped public IPv4", ["::ffff:8.8.8.8", "::ffff:808:808"]],
  ])("accepts %s", (_, ips) => {
    for (const ip of ips) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it.each([
    ["unspecified", ["0.0.0.0", "0.1.2.3", "::"]],
    ["loopback", ["127.0.0.1", "127.255.0.9", "::1"]],
    ["private (RFC 1918)", ["10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1"]],
    ["shared address space (RFC 6598)", ["100.64.0.1", "100.127.255.254"]],
    ["link-local", ["169.254.1.1", "fe80::1", "febf::1"]],
    ["IETF protocol assignments", ["192.0.0.8"]],
    ["documentation", ["192.0.2.1", "198.51.100.7", "203.0.113.9", "2001:db8::1", "3fff::1"]],
    ["benchmarking", ["198.18.0.1", "198.19.255.255", "2001:2::1"]],
    ["6to4 relay anycast and 6to4", ["192.88.99.1", "2002:a00:1::", "2002:808:808::1"]],
    ["multicast", ["224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1"]],
    ["reserved and broadcast", ["240.0.0.1", "255.255.255.255"]],
    ["IPv4-mapped private IPv4, in any spelling", ["::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:10.0.0.1", "0:0:0:0:0:ffff:a9fe:a9fe"]],
    ["IPv4-compatible and IPv4-translated (RFC 6145)", ["::127.0.0.1", "::a00:1", "::ffff:0:a00:1"]],
    ["NAT64 (RFC 6052, RFC 8215)", ["64:ff9b::a00:1", "64:ff9b::808:808", "64:ff9b:1::a00:1"]],
    ["Teredo", ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::1"]],
    ["ORCHID and other IETF assignments in 2001::/23", ["2001:10::1", "2001:20::1", "2001:3::1"]],
    ["unique local and site-local", ["fc00::1", "fd12:3456::1", "fec0::1"]],
    ["outside global unicast (2000::/3)", ["100::1", "4000::1", "5f00::1"]],
    ["not an address", ["", "localhost", "1.2.3", "127.1", "0x7f000001", "::ffff:1.2.3", "fe80::1%eth0x/"]],
  ])("refuses %s", (_, ips) => {
    for (const ip of ips) expect(isPublicAddress(ip), ip).toBe(false);
  });

  it("knows loopback in every spelling, for the test-only loopback mode", () => {
    for (const ip of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1"]) expect(isLoopbackAddress(ip), ip).toBe(true);
    for (const ip of ["10.0.0.1", "::", "8.8.8.8", "::2"]) expect(isLoopbackAddress(ip), ip).toBe(false);
  });
});

describe("client ID metadata documents cached as HTTP says", () => {
  const day = 24 * 3600;
  const { minCacheSeconds: floor, maxCacheSeconds: ceiling, cacheSeconds: fallback, staleSeconds } = metadataDocumentLimits;
  const cacheKey = (id: string) => `oauth:cimd:${sha256(id)}`;

  /**
   * The cache's clock (its `now` option), moved by hand. Not tests/support/clock.ts, which moves `Date` itself: a jump of
   * a day would also end the quota's windows and the local store's keys. Here they keep real time, and only the cache's
   * reading of its own times moves.
   */
  function handClock() {
    let time = Date.now();
    return { now: () => time, advance: (seconds: number) => void (time += seconds * 1000) };
  }
  type Clock = ReturnType<typeof handClock>;

  let paths = 0;
  /** Publishes a valid document at a new path, with these header fields; gives its client_id and path. */
  function publishNew(headers: Record<string, string | string[]> = {}) {
    const path = `/cached-${++paths}.json`;
    const id = `${origin}${path}`;
    publish(path, validDocument(id), { headers });
    return { id, path };
  }

  /** Resolves on the clock; gives what came back (a client or the error) and the lines logged. */
  async function resolved(id: string, clock: Clock) {
    const lines: string[] = [];
    const result: unknown = await resolve(id, { now: clock.now, log: (line) => lines.push(line) }).catch(answerOf);
    return { result, lines };
  }

  const refused = { error: "invalid_client", description: refusedDocumentDescription, status: 401 };

  it.each<[string, Record<string, string | string[]>, number]>([
    ["max-age", { "cache-control": "max-age=600" }, 600],
    ["max-age among other directives", { "cache-control": "public, max-age=3600, must-revalidate" }, 3600],
    ["s-maxage over a longer max-age", { "cache-control": "max-age=3600, s-maxage=120" }, 120],
    ["s-maxage over a shorter max-age", { "cache-control": "s-maxage=3600, max-age=60" }, 3600],
    ["directive names in any case", { "cache-control": "Public, MAX-AGE=900" }, 900],
    ["a quoted argument", { "cache-control": 'max-age="900"' }, 900],
    ["max-age less Age", { "cache-control": "max-age=600", age: "500" }, 100],
    ["max-age less the first of a list of Ages", { "cache-control": "max-age=600", age: "200, 5" }, 400],
    ["max-age with an Age that is not a number (ignored)", { "cache-control": "max-age=600", age: "soon" }, 600],
    ["the floor: no-store", { "cache-control": "no-store" }, floor],
    ["the floor: no-cache with a max-age", { "cache-control": "max-age=600, no-cache" }, floor],
    ["the floor: no-cache naming fields, a comma in its quotes", { "cache-control": 'no-cache="set-cookie, x", max-age=600' }, floor],
    ["the floor: private", { "cache-control": "private, max-age=600" }, floor],
    ["the floor: max-age=0", { "cache-control": "public, max-age=0, must-revalidate" }, floor],
    ["the floor: s-maxage=0 over max-age", { "cache-control": "s-maxage=0, max-age=600" }, floor],
    ["the floor: a max-age below it", { "cache-control": "max-age=10" }, floor],
    ["the floor: Age past max-age", { "cache-control": "max-age=600", age: "900" }, floor],
    ["the floor: a negative max-age", { "cache-control": "max-age=-5" }, floor],
    ["the floor: a max-age that is not a number", { "cache-control": "max-age=soon" }, floor],
    ["the floor: a fractional max-age", { "cache-control": "max-age=1.5" }, floor],
    ["the floor: max-age without a value", { "cache-control": "max-age" }, floor],
    ["the floor: an unclosed quote", { "cache-control": 'max-age="900' }, floor],
    ["the floor: max-age given twice", { "cache-control": "max-age=3600, max-age=7200" }, floor],
    ["the floor: max-age in two Cache-Control lines", { "cache-control": ["max-age=3600", "max-age=3600"] }, floor],
    ["the ceiling: max-age=999999999", { "cache-control": "max-age=999999999" }, ceiling],
    ["the ceiling: a max-age past any number", { "cache-control": `max-age=${"9".repeat(400)}` }, ceiling],
    ["the default: no Cache-Control", {}, fallback],
    ["the default: no freshness directive", { "cache-control": "public, must-revalidate" }, fallback],
  ])("keeps a document for %s, fetched again once that ends", async (_, headers, seconds) => {
    const clock = handClock();
    const { id, path } = publishNew(headers);
    expect(await resolve(id, { now: clock.now })).toMatchObject({ client_id: id });
    clock.advance(seconds - 1);
    await resolve(id, { now: clock.now });
    expect(hits.get(path), `${seconds - 1} s later`).toBe(1);
    clock.advance(2);
    await resolve(id, { now: clock.now });
    expect(hits.get(path), `${seconds + 1} s later`).toBe(2);
  });

  it("records the client with its times, and the key expires when the stale window ends", async () => {
    const clock = handClock();
    const { id } = publishNew({ "cache-control": "max-age=600" });
    const start = clock.now();
    const client = await resolve(id, { now: clock.now });
    expect(client).not.toHaveProperty("cache");
    expect(await server.options.redis.get(cacheKey(id))).toEqual({
      ...client,
      cache: { fetchedAt: start, freshUntil: start + 600_000, staleUntil: start + (600 + staleSeconds) * 1000 },
    });
    const ttl = await server.options.redis.ttl(cacheKey(id));
    expect(ttl).toBeGreaterThan(600 + staleSeconds - 10);
    expect(ttl).toBeLessThanOrEqual(600 + staleSeconds);
    // The longest a record lives: the ceiling and the stale window.
    const longest = publishNew({ "cache-control": "max-age=999999999" });
    await resolve(longest.id, { now: clock.now });
    expect(await server.options.redis.ttl(cacheKey(longest.id))).toBeLessThanOrEqual(ceiling + staleSeconds);
  });

  it("takes a changed document when the old one goes stale, not before", async () => {
    const clock = handClock();
    const { id, path } = publishNew({ "cache-control": "max-age=120" });
    await resolve(id, { now: clock.now });
    publish(path, validDocument(id, { client_name: "Renamed" }), { headers: { "cache-control": "max-age=120" } });
    clock.advance(119);
    expect(await resolve(id, { now: clock.now })).toMatchObject({ client_name: "Doc client" });
    clock.advance(2);
    expect(await resolve(id, { now: clock.now })).toMatchObject({ client_name: "Renamed" });
  });

  it("takes a document that answers slowly but within the time limit", async () => {
    const { id } = publishNew();
    documents.get(new URL(id).pathname)!.delayMs = 300;
    expect(await resolve(id)).toMatchObject({ client_id: id });
  });

  it("has the fetch guard give Cache-Control and Age with the JSON, and tell no answer from a refused one", async () => {
    const guard = { maxBytes: 5120, timeoutMs: patience, allowLoopback: true };
    const { id } = publishNew({ "cache-control": ["public", "max-age=60"], age: "7" });
    expect(await fetchJsonGuardedResponse(new URL(id), guard)).toEqual({
      json: validDocument(id),
      cacheControl: "public, max-age=60",
      age: "7",
    });
    expect(await fetchJsonGuarded(new URL(id), guard)).toEqual(validDocument(id));
    const bare = publishNew();
    expect(await fetchJsonGuardedResponse(new URL(bare.id), guard)).toEqual({ json: validDocument(bare.id) });
    const failure = (url: string, options = guard) => fetchJsonGuardedResponse(new URL(url), options).catch((e: unknown) => e);
    for (const url of ["https://does-not-exist.invalid/c.json", `${closedOrigin}/c.json`]) {
      expect(await failure(url), url).toBeInstanceOf(FetchOutage);
    }
    for (const status of [500, 502, 503, 504, 429]) {
      publish("/status.json", "", { status });
      expect(await failure(`${origin}/status.json`), String(status)).toBeInstanceOf(FetchOutage);
    }
    for (const status of [301, 400, 401, 403, 404, 410]) {
      publish("/status.json", "", { status });
      const error = await failure(`${origin}/status.json`);
      expect(error, String(status)).toBeInstanceOf(FetchRefused);
      expect(error, String(status)).not.toBeInstanceOf(FetchOutage);
    }
    publish("/not-json.json", "<html>");
    publish("/too-big.json", { pad: "x".repeat(6000) });
    const refusedAnswers: [string, URL, typeof guard][] = [
      ["a private address", new URL("https://10.1.2.3/c.json"), guard],
      ["loopback outside the test mode", new URL(`${origin}/not-json.json`), { ...guard, allowLoopback: false }],
      ["not JSON", new URL(`${origin}/not-json.json`), guard],
      ["too large", new URL(`${origin}/too-big.json`), guard],
    ];
    for (const [what, url, options] of refusedAnswers) {
      const error = await failure(url.href, options);
      expect(error, what).toBeInstanceOf(FetchRefused);
      expect(error, what).not.toBeInstanceOf(FetchOutage);
    }
  });

  const outages: [string, Omit<Served, "body"> & { body?: string }, RegExp][] = [
    ["answers 500", { status: 500 }, /the server answered 500/],
    ["answers 503", { status: 503, headers: { "retry-after": "120" } }, /the server answered 503/],
    ["answers 429", { status: 429 }, /the server answered 429/],
    ["closes the connection", { fail: "close" }, /could not be fetched/],
  ];

  it.each(outages)(
    "serves the last good copy when the host %s after its freshness, logs it, and tries again a minute later",
    async (_, failure, reason) => {
      const clock = handClock();
      const { id, path } = publishNew({ "cache-control": "max-age=300" });
      await resolve(id, { now: clock.now });
      documents.set(path, { body: "", ...failure });
      clock.advance(301);
      const stale = await resolved(id, clock);
      expect(stale.result).toMatchObject({ client_id: id, client_name: "Doc client" });
      expect(stale.result).not.toHaveProperty("cache");
      expect(stale.lines).toHaveLength(1);
      expect(stale.lines[0]).toMatch(/^client metadata document served stale: "http:\/\/127\.0\.0\.1:\d+\/cached-\d+\.json": /);
      expect(stale.lines[0]).toMatch(reason);
      expect(stale.lines[0]).toContain(`is served until ${new Date(clock.now() - 1000 + staleSeconds * 1000).toISOString()}`);
      expect(hits.get(path)).toBe(2);
      // Within the minute: the copy again, without a fetch or a log line.
      clock.advance(floor - 1);
      expect(await resolved(id, clock)).toMatchObject({ result: { client_name: "Doc client" }, lines: [] });
      expect(hits.get(path)).toBe(2);
      clock.advance(2);
      expect(await resolved(id, clock)).toMatchObject({ result: { client_name: "Doc client" }, lines: [expect.stringMatching(reason)] });
      expect(hits.get(path)).toBe(3);
      // Back up, with a changed document: taken at the next try.
      publish(path, validDocument(id, { client_name: "Back" }));
      clock.advance(floor + 1);
      expect(await resolved(id, clock)).toMatchObject({ result: { client_name: "Back" }, lines: [] });
    },
  );

  it.concurrent.each<[string, Omit<Served, "body">]>([
    ["never answers", { fail: "hang" }],
    ["slows down past the time limit", { delayMs: metadataDocumentLimits.timeoutMs + 1000 }],
  ])("serves the last good copy when the host %s after its freshness", async (_, failure) => {
    const clock = handClock();
    const { id, path } = publishNew({ "cache-control": "max-age=60" });
    await resolve(id, { now: clock.now });
    documents.set(path, { ...documents.get(path)!, ...failure });
    clock.advance(61);
    const stale = await resolved(id, clock);
    expect(stale.result).toMatchObject({ client_id: id, client_name: "Doc client" });
    expect(stale.lines).toEqual([expect.stringMatching(/served stale: .*did not arrive within 2000 ms/)]);
  });

  it("answers invalid_client once the stale window has ended, and keeps that refusal a minute", async () => {
    const clock = handClock();
    const { id, path } = publishNew({ "cache-control": "max-age=60" });
    await resolve(id, { now: clock.now });
    documents.set(path, { status: 500, body: "" });
    clock.advance(60 + staleSeconds - 1);
    expect(await resolved(id, clock)).toMatchObject({
      result: { client_name: "Doc client" },
      lines: [expect.stringContaining("served stale")],
    });
    clock.advance(2);
    const after = await resolved(id, clock);
    expect(after.result).toMatchObject(refused);
    expect(after.lines).toEqual([expect.stringMatching(/^client metadata document refused: .*: the server answered 500$/)]);
    expect(hits.get(path)).toBe(3);
    clock.advance(floor - 1);
    expect(await resolved(id, clock)).toMatchObject({ result: refused, lines: [] });
    expect(hits.get(path)).toBe(3);
  });

  it.each<[string, (id: string, path: string) => void, RegExp]>([
    ["its client_id changed", (id, path) => publish(path, validDocument(`${id}?v=2`)), /not its own URL/],
    ["invalid metadata", (id, path) => publish(path, validDocument(id, { redirect_uris: ["javascript:alert(1)"] })), /metadata is invalid/],
    ["404", (_, path) => documents.delete(path), /answered 404/],
    ["410", (_, path) => publish(path, "", { status: 410 }), /answered 410/],
    ["a redirect", (_, path) => publish(path, "", { status: 301, headers: { location: "/elsewhere.json" } }), /redirects are not followed/],
    ["a document too large", (id, path) => publish(path, validDocument(id, { pad: "x".repeat(6000) })), /larger than 5120/],
    ["not JSON", (_, path) => publish(path, "<html>"), /not JSON/],
  ])("refuses at once a document that now answers with %s, and drops the stale copy", async (_, change, reason) => {
    const clock = handClock();
    const { id, path } = publishNew({ "cache-control": "max-age=60" });
    await resolve(id, { now: clock.now });
    change(id, path);
    clock.advance(61);
    const now = await resolved(id, clock);
    expect(now.result).toMatchObject(refused);
    expect(now.lines).toEqual([expect.stringMatching(reason)]);
    expect(now.lines[0]).toMatch(/; its cached copy is dropped$/);
    // The host then fails: there is no copy left to serve.
    documents.set(path, { status: 500, body: "" });
    clock.advance(floor + 1);
    const later = await resolved(id, clock);
    expect(later.result).toMatchObject(refused);
    expect(later.lines).toEqual([expect.stringMatching(/refused: .*: the server answered 500$/)]);
  });

  it("keeps a refusal a minute: a fixed document is taken after it, not before", async () => {
    const clock = handClock();
    const path = `/cached-${++paths}.json`;
    const id = `${origin}${path}`;
    publish(path, "not json");
    expect(await resolved(id, clock)).toMatchObject({ result: refused, lines: [expect.stringMatching(/not JSON/)] });
    publish(path, validDocument(id));
    clock.advance(metadataDocumentLimits.refusalCacheSeconds - 1);
    expect(await resolved(id, clock)).toMatchObject({ result: refused, lines: [] });
    expect(hits.get(path)).toBe(1);
    clock.advance(2);
    expect(await resolved(id, clock)).toMatchObject({ result: { client_id: id }, lines: [] });
    expect(hits.get(path)).toBe(2);
  });

  it("counts every fetch against the IP's quota, a refetch too, and never a cached answer", async () => {
    const clock = handClock();
    const ip = newIp();
    const counted = () => countedFor(server.options.redis, "oauth-client-metadata", ip);
    const { id, path } = publishNew({ "cache-control": "max-age=60" });
    await resolve(id, { ip, now: clock.now });
    await resolve(id, { ip, now: clock.now });
    expect(await counted()).toBe(1);
    clock.advance(61);
    await resolve(id, { ip, now: clock.now });
    expect(await counted()).toBe(2);
    documents.set(path, { status: 503, body: "" });
    clock.advance(61);
    await resolve(id, { ip, now: clock.now }); // refetched, failed: the stale copy
    await resolve(id, { ip, now: clock.now }); // the stale copy, held a minute
    expect(await counted()).toBe(3);
    expect(hits.get(path)).toBe(3);
  });

  it("answers a fresh copy or a refusal with one store command, and a fetch with two", async () => {
    const calls: string[] = [];
    const real = server.options.redis;
    const redis = new Proxy(real, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(name));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const clock = handClock();
    const { id } = publishNew({ "cache-control": "max-age=60" });
    await resolve(id, { redis, now: clock.now });
    expect(calls.splice(0)).toEqual(["get", "set"]);
    await resolve(id, { redis, now: clock.now });
    expect(calls.splice(0)).toEqual(["get"]);
    const broken = publishNew();
    publish(broken.path, "not json");
    await resolve(broken.id, { redis, now: clock.now }).catch(() => {});
    expect(calls.splice(0)).toEqual(["get", "set"]);
    await resolve(broken.id, { redis, now: clock.now }).catch(() => {});
    expect(calls.splice(0)).toEqual(["get"]);
  });

  it("lets two requests refetch at once: both get the new document", async () => {
    const clock = handClock();
    const { id, path } = publishNew({ "cache-control": "max-age=60" });
    await resolve(id, { now: clock.now });
    publish(path, validDocument(id, { client_name: "Both" }), { headers: { "cache-control": "max-age=60" } });
    clock.advance(61);
    const both = await Promise.all([resolve(id, { now: clock.now }), resolve(id, { now: clock.now })]);
    expect(both.map((c) => c.client_name)).toEqual(["Both", "Both"]);
    expect(hits.get(path)).toBeLessThanOrEqual(3);
  });

  it("reads its clock from the authorization server's options", async () => {
    const clock = handClock();
    const options = { ...server.options, allowLoopbackMetadataDocuments: true, now: clock.now };
    const { id, path } = publishNew({ "cache-control": "max-age=600" });
    await findClient(options, id, async () => undefined);
    clock.advance(599);
    await findClient(options, id, async () => undefined);
    expect(hits.get(path)).toBe(1);
    clock.advance(2);
    await findClient(options, id, async () => undefined);
    expect(hits.get(path)).toBe(2);
  });

  it("reads the records written before: a bare client and a bare refusal, each until its key expires", async () => {
    const clock = handClock();
    const { id, path } = publishNew();
    const client = await resolve(id, { now: clock.now });
    await server.options.redis.set(cacheKey(id), client, { ex: 300 });
    documents.delete(path);
    clock.advance(day); // the bare record carries no times: only its TTL ends it
    expect(await resolved(id, clock)).toMatchObject({ result: client, lines: [] });
    expect(hits.get(path)).toBe(1);
    await server.options.redis.set(cacheKey(id), { refused: true }, { ex: 60 });
    expect(await resolved(id, clock)).toMatchObject({ result: refused, lines: [] });
    expect(hits.get(path)).toBe(1);
  });
});
