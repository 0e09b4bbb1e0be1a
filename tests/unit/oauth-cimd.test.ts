import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedDocumentDescription, resolveMetadataDocumentClient } from "../../src/oauth/cimd.ts";
import { sha256 } from "../../src/oauth/clients.ts";
import { OAuthError } from "../../src/oauth/errors.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { quotaHeaders } from "../../src/limits/headers.ts";
import type { PolicyName } from "../../src/limits/policies.ts";
import { isLoopbackAddress, isPublicAddress } from "../../src/oauth/ssrf.ts";
import { inProcessOAuthServer } from "../support/oauth-server.ts";
import { countedFor } from "../support/quota-count.ts";

/** Client ID metadata documents served from loopback (the test mode), resolved in-process over the local store. */
let server: Awaited<ReturnType<typeof inProcessOAuthServer>>;
let documentServer: Server;
let origin: string;
let closedOrigin: string;
const documents = new Map<string, { status?: number; body: string; headers?: Record<string, string> }>();
const hits = new Map<string, number>();

beforeAll(async () => {
  server = await inProcessOAuthServer();
  documentServer = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/silent.json") return; // never answers: the fetch times out
    const doc = documents.get(path) ?? { status: 404, body: "" };
    res.writeHead(doc.status ?? 200, { "content-type": "application/json", ...doc.headers });
    res.end(doc.body);
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

function resolve(clientId: string, { allowLoopback = true, ip = newIp(), log = (_line: string) => {} } = {}) {
  // What the OAuth door counts for a request from `ip` (countAlso in src/http/quota.ts).
  const count = async (policy: PolicyName) => {
    const result = await server.options.limiter.consume(policy, ip);
    if (!result.allowed) throw new Refusal("rate_limited", { headers: quotaHeaders(result) });
    return result;
  };
  return resolveMetadataDocumentClient(clientId, { redis: server.options.redis, count, allowLoopback, log });
}
const publish = (path: string, body: object | string, extra: { status?: number; headers?: Record<string, string> } = {}) =>
  documents.set(path, { body: typeof body === "string" ? body : JSON.stringify(body), ...extra });
const validDocument = (id: string, extra: object = {}) => ({
  client_id: id,
  client_name: "Doc client",
  redirect_uris: ["http://127.0.0.1/cb"],
  token_endpoint_auth_method: "none",
  ...extra,
});

/** The refusal every document gets, and the one log line that tells why. */
async function refusal(clientId: string, allowLoopback = true) {
  const lines: string[] = [];
  const error: unknown = await resolve(clientId, { allowLoopback, log: (line) => lines.push(line) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, clientId).toBeInstanceOf(OAuthError);
  const { error: code, description, status } = error as OAuthError;
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
    for (const [path, document, reason, status] of served) {
      if (document) publish(path, document(`${origin}${path}`), status ? { status, headers: { location: "/ok.json" } } : {});
      await record(`${origin}${path}`, reason);
    }
    await record(`${closedOrigin}/refused.json`, /could not be fetched/);
    await record(`${origin}/silent.json`, /did not arrive within 2000 ms/);
    await record("https://does-not-exist.invalid/c.json", /does not resolve|DNS timed out/);
    await record("https://10.1.2.3/c.json", /private or reserved/);
    await record("https://[::ffff:a00:1]/c.json", /private or reserved/);
    await record(`${origin}/loopback-off.json`, /must use https/, false);
    await record("https://a.example/", /needs a path/);
    await record("https://a.example/x/../c.json", /normal form/);
    await record("https://u:p@a.example/c.json", /user information/);
    await record(`https://a.example/${"x".repeat(600)}`, /too long/);
    await record("https://a.example/c.json#x", /fragment/);
    await record("https://a.example/c\n.json", /normal form/);
    expect([...answers]).toEqual([JSON.stringify({ code: "invalid_client", description: refusedDocumentDescription, status: 401 })]);
  });

  it("caches a refusal for a minute: the same URL again costs no fetch, no quota and no log line", async () => {
    publish("/flaky.json", "not json");
    const ip = newIp();
    await expect(resolve(`${origin}/flaky.json`, { ip })).rejects.toThrow(OAuthError);
    const lines: string[] = [];
    const again = await resolve(`${origin}/flaky.json`, { ip, log: (l) => lines.push(l) }).catch((e: unknown) => e);
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
    for (let i = 0; i < 5; i++) await expect(resolve("https://a.example/", { ip })).rejects.toThrow(OAuthError);
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
