import { parseEnv } from "node:util";
import dotenv from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatEnv } from "../../scripts/runtime/config.ts";
import { matchRedirectUri } from "../../src/oauth/redirect-uri.ts";
import { formPost, inProcessOAuthServer, jsonPost } from "../support/oauth-server.ts";

/** The authorization server's handlers in-process (web Request in, Response out) over the local store. */
let server: Awaited<ReturnType<typeof inProcessOAuthServer>>;
beforeAll(async () => {
  server = await inProcessOAuthServer();
});
afterAll(() => server?.close());

const register = (body: unknown, ip?: string) => server.call("/oauth/register", jsonPost(body), ip);

describe("registration (RFC 7591)", () => {
  it.each([
    ["javascript:alert(1)", "invalid_redirect_uri"],
    ["data:text/html,<script>alert(1)</script>", "invalid_redirect_uri"],
    ["http://app.example/cb", "invalid_redirect_uri"],
    ["https://app.example/cb#frag", "invalid_redirect_uri"],
    ["/relative/cb", "invalid_redirect_uri"],
    ["https://user:pw@app.example/cb", "invalid_redirect_uri"],
    ["vbscript:msgbox(1)", "invalid_redirect_uri"],
    [`https://app.example/${"x".repeat(600)}`, "invalid_redirect_uri"],
  ])("refuses the redirect URI %s", async (uri, error) => {
    const res = await register({ client_name: "x", redirect_uris: [uri] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error });
  });

  it.each([
    [{ grant_types: ["authorization_code"] }, "invalid_redirect_uri"],
    [{ grant_types: ["client_credentials"], token_endpoint_auth_method: "none" }, "invalid_client_metadata"],
    [{ grant_types: ["implicit"], redirect_uris: ["https://a.example/cb"] }, "invalid_client_metadata"],
    [{ token_endpoint_auth_method: "private_key_jwt", redirect_uris: ["https://a.example/cb"] }, "invalid_client_metadata"],
    [{ client_name: "x".repeat(101), redirect_uris: ["https://a.example/cb"] }, "invalid_client_metadata"],
    [{ client_name: "Good\u202Eevil", redirect_uris: ["https://a.example/cb"] }, "invalid_client_metadata"],
    [{ redirect_uris: Array.from({ length: 9 }, (_, i) => `https://a.example/${i}`) }, "invalid_redirect_uri"],
  ])("refuses inconsistent or oversized metadata %j", async (body, error) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error });
  });

  it.each([
    ["{not json", 400],
    ["[1,2]", 400],
    ["null", 400],
    [JSON.stringify({ client_name: "x", padding: "y".repeat(9000) }), 413],
  ])("refuses the malformed or oversized body %#", async (body, status) => {
    const res = await register(body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  it("refuses a body that is not JSON by its content type", async () => {
    const res = await server.call("/oauth/register", formPost({ client_name: "x" }));
    expect(res.status).toBe(400);
  });

  it("stores only a hash of the secret, and drops metadata it does not use", async () => {
    const res = await register({
      client_name: "M2M",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_post",
      logo_uri: "https://x/y.png",
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { client_id: string; client_secret: string };
    const stored = JSON.stringify(await server.options.redis.get(`oauth:client:${body.client_id}`));
    expect(stored).not.toContain(body.client_secret);
    expect(stored).toContain("client_secret_sha256");
    expect(stored).not.toContain("logo_uri");
  });

  it("limits registrations to 10 an hour per client IP, with RateLimit headers and Retry-After", async () => {
    const ip = "192.0.2.77";
    const body = { client_name: "flood", grant_types: ["client_credentials"] };
    for (let i = 0; i < 10; i++) expect((await register(body, ip)).status).toBe(201);
    const refused = await register(body, ip);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    expect(refused.headers.get("ratelimit-policy")).toBe('"oauth-register";q=10;w=3600');
    expect(refused.headers.get("ratelimit")).toMatch(/^"oauth-register";r=0;t=\d+$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await register(body, "192.0.2.78")).status).toBe(201);
  });
});

describe("the token endpoint", () => {
  it("answers client_credentials and refuses bad clients, scopes, resources and bodies", async () => {
    const { client_id, client_secret } = (await (await register({ grant_types: ["client_credentials"] })).json()) as Record<string, string>;
    const token = (fields: Record<string, string>) =>
      server.call("/oauth/token", formPost({ grant_type: "client_credentials", client_id: client_id!, ...fields }));

    const ok = await token({ client_secret: client_secret!, scope: "svc:brief", resource: "https://STUDIO.example/mcp/" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.json()).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "svc:read svc:brief" });

    const wrongSecret = await token({ client_secret: "fds_wrong" });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await wrongSecret.json()).toMatchObject({ error: "invalid_client" });
    expect((await (await token({ client_secret: client_secret!, scope: "svc:admin" })).json()) as object).toMatchObject({
      error: "invalid_scope",
    });
    for (const resource of ["https://evil.example/mcp", "https://studio.example/api/v2", "https://studio.example/mcp#x", "not a url"]) {
      const res = await token({ client_secret: client_secret!, resource });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_target" });
    }
    const twice = await server.call("/oauth/token", {
      ...formPost({}),
      body: `grant_type=client_credentials&client_id=${client_id}&client_id=${client_id}`,
    });
    expect(await twice.json()).toMatchObject({ error: "invalid_request" });
    const big = await server.call("/oauth/token", formPost({ grant_type: "client_credentials", padding: "x".repeat(5000) }));
    expect(big.status).toBe(413);
    const asJson = await server.call("/oauth/token", jsonPost({ grant_type: "client_credentials" }));
    expect(await asJson.json()).toMatchObject({ error: "invalid_request" });
    expect(await (await server.call("/oauth/token", formPost({ grant_type: "password" }))).json()).toMatchObject({
      error: "unsupported_grant_type",
    });
    const basic = await server.call("/oauth/token", {
      ...formPost({ grant_type: "client_credentials" }),
      headers: { ...formPost({}).headers, authorization: "Basic eDp5" },
    });
    expect(basic.status).toBe(401);
  });
});

describe("redirect URI matching", () => {
  it("matches exactly, and loopback http with any port (RFC 8252 §7.3)", () => {
    const registered = ["https://app.example/cb", "http://127.0.0.1/cb", "http://localhost:3000/cb"];
    expect(matchRedirectUri(registered, "https://app.example/cb")).toBe("https://app.example/cb");
    expect(matchRedirectUri(registered, "http://127.0.0.1:51234/cb")).toBe("http://127.0.0.1/cb");
    expect(matchRedirectUri(registered, "http://localhost:9999/cb")).toBe("http://localhost:3000/cb");
    for (const uri of [
      "https://app.example/cb/",
      "https://app.example/cb?x=1",
      "https://app.example:444/cb",
      "http://127.0.0.1:5/other",
      "https://evil.example/cb",
      "http://0x7f.1/cb",
      "http://127.1/cb",
      "http:/127.0.0.1/cb",
      "http://127.0.0.1/cb/../cb",
      "http://127.0.0.1:0/cb",
      "http://127.0.0.1:65536/cb",
      "http://LOCALHOST:9999/cb",
      "HTTPS://app.example/cb",
    ]) {
      expect(matchRedirectUri(registered, uri), uri).toBeUndefined();
    }
  });
});

describe("the local runtime's env file", () => {
  it("round-trips a JSON key set through dotenv (netlify dev) and Node's parseEnv", () => {
    const env = {
      OAUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ kty: "EC", kid: "a-b_c", x: "x+/=" }] }),
      NAME: "it's",
      URL: "http://localhost:8888",
    };
    const text = formatEnv(env);
    expect(dotenv.parse(text)).toEqual(env);
    expect(parseEnv(text)).toEqual(env);
    expect(() => formatEnv({ BAD: `'"` })).toThrow(/cannot carry/);
  });
});
