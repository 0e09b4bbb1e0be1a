import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationServerMetadata } from "../../src/oauth/metadata.ts";
import { formActionSource, inferredApplicationType } from "../../src/oauth/redirect-uri.ts";
import { hostedClients } from "../support/hosted-clients.ts";
import { inProcessOAuthServer, jsonPost } from "../support/oauth-server.ts";

/** Registration (RFC 7591) as today's clients use it: application_type, their redirect URIs, the metadata they read. */
let server: Awaited<ReturnType<typeof inProcessOAuthServer>>;
beforeAll(async () => {
  server = await inProcessOAuthServer();
});
afterAll(() => server?.close());

const register = async (body: Record<string, unknown>) => {
  const res = await server.call("/oauth/register", jsonPost(body));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("application_type", () => {
  it.each([
    ["native", ["http://127.0.0.1/cb", "http://[::1]:8080/cb", "http://localhost/cb", "com.example.app:/oauth2redirect"]],
    ["native", ["cursor://anysphere.cursor-mcp/oauth/callback", "https://app.example/cb"]],
    ["web", ["https://app.example/cb", "http://127.0.0.1:3000/cb"]],
  ])("accepts %s with %j, stores it and answers it back", async (type, redirect_uris) => {
    const { status, body } = await register({ application_type: type, redirect_uris, token_endpoint_auth_method: "none" });
    expect(status).toBe(201);
    expect(body.application_type).toBe(type);
    expect(await server.options.redis.get(`oauth:client:${String(body.client_id)}`)).toMatchObject({ application_type: type });
  });

  it.each([["desktop"], [""], [7], [null], [["native"]]])("refuses application_type %j as invalid_client_metadata", async (type) => {
    const { status, body } = await register({ application_type: type, redirect_uris: ["https://app.example/cb"] });
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_client_metadata");
  });

  it("refuses a private-use scheme for a web client, and what no application may use", async () => {
    for (const [type, uri] of [
      ["web", "com.example.app:/cb"],
      ["web", "cursor://anysphere.cursor-mcp/oauth/callback"],
      ["native", "http://192.168.1.5/cb"],
      ["native", "http://app.example/cb"],
      ["native", "javascript:alert(1)"],
      ["native", "data:text/html,x"],
      ["native", "file:///etc/passwd"],
      ["native", "com.example.app:"],
      ["native", "com.example.app:/cb#x"],
      ["native", "https://user:pw@app.example/cb"],
    ]) {
      const { status, body } = await register({ application_type: type, redirect_uris: [uri], token_endpoint_auth_method: "none" });
      expect([status, body.error], `${type} ${uri}`).toEqual([400, "invalid_redirect_uri"]);
    }
  });

  it("infers native from loopback-only or private-use redirect URIs, web otherwise (OpenID Connect's default)", () => {
    expect(inferredApplicationType(["http://127.0.0.1/cb", "http://localhost:6274/cb"])).toBe("native");
    expect(inferredApplicationType(["com.example.app:/cb", "https://app.example/cb"])).toBe("native");
    expect(inferredApplicationType(["https://app.example/cb", "http://127.0.0.1/cb"])).toBe("web");
    expect(inferredApplicationType([])).toBe("web");
  });

  it("lets the consent form's redirect go to the client's origin, or to its private-use scheme", () => {
    expect(formActionSource("https://claude.ai/api/mcp/auth_callback")).toBe("https://claude.ai");
    expect(formActionSource("http://127.0.0.1:33418/")).toBe("http://127.0.0.1:33418");
    expect(formActionSource("cursor://anysphere.cursor-mcp/oauth/callback")).toBe("cursor:");
  });
});

describe("the registration answer agrees with the server's metadata", () => {
  const metadata = authorizationServerMetadata("https://studio.example");
  it.each([
    [{ grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none" }, ["authorization_code"], "none"],
    [{ grant_types: ["authorization_code", "refresh_token"] }, ["authorization_code"], "client_secret_post"],
    [{ token_endpoint_auth_method: "client_secret_basic" }, ["authorization_code"], "client_secret_post"],
    [
      { grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_basic" },
      ["client_credentials"],
      "client_secret_post",
    ],
    [{}, ["authorization_code"], "client_secret_post"],
  ])("%j registers as %j with %s", async (asked, grants, method) => {
    const { status, body } = await register({ redirect_uris: ["https://chatgpt.com/connector_platform_oauth_redirect"], ...asked });
    expect(status).toBe(201);
    expect(body.grant_types).toEqual(grants);
    expect(body.token_endpoint_auth_method).toBe(method);
    for (const grant of body.grant_types as string[]) expect(metadata.grant_types_supported).toContain(grant);
    expect(metadata.token_endpoint_auth_methods_supported).toContain(body.token_endpoint_auth_method);
    expect(metadata.response_types_supported).toEqual(expect.arrayContaining(body.response_types as string[]));
  });

  it.each([
    [{ grant_types: ["refresh_token"] }],
    [{ grant_types: ["implicit"] }],
    [{ grant_types: ["authorization_code", "password"] }],
    [{ token_endpoint_auth_method: "client_secret_jwt" }],
    [{ token_endpoint_auth_method: "tls_client_auth" }],
  ])("refuses %j rather than echo what the server does not support", async (asked) => {
    const { status, body } = await register({ redirect_uris: ["https://app.example/cb"], ...asked });
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_client_metadata");
  });
});

describe("the hosted clients' redirect URIs", () => {
  it.each(hostedClients.map((c) => [c.name, c] as const))("%s registers as it asks, and as it is inferred", async (_name, client) => {
    for (const declared of [{}, { application_type: client.application_type }]) {
      const { status, body } = await register({
        client_name: client.name,
        redirect_uris: client.redirect_uris,
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
        ...declared,
      });
      expect(status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({
        redirect_uris: client.redirect_uris,
        application_type: client.application_type,
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "none",
      });
    }
  });
});
