import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationServerMetadata } from "../../src/tokens/metadata.ts";
import {
  formActionSource,
  inferredApplicationType,
  isReversedDomainName,
  systemScheme,
  systemSchemes,
} from "../../src/oauth/redirect-uri.ts";
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
    ["native", ["com.example.desktop-app://oauth/callback", "https://app.example/cb"]],
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
      ["web", "com.example.desktop-app://oauth/callback"],
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
    expect(formActionSource("com.example.desktop-app://oauth/callback")).toBe("com.example.desktop-app:");
  });
});

describe("private-use schemes (RFC 8252 §7.1, §8.4)", () => {
  const registerNative = (uri: string) =>
    register({ application_type: "native", redirect_uris: [uri], token_endpoint_auth_method: "none" });

  it.each([
    ["com.example.app:/oauth2redirect/example-provider"],
    ["com.example.app:/cb?from=auth"],
    ["io.github.some-user.cli-tool://callback"],
    ["com.example.app-42:/cb"],
    ["Com.Example.App:/cb"],
    ["net.example.a.b.c.d:/cb"],
  ])("registers %s: a domain name written backwards", async (uri) => {
    const { status, body } = await registerNative(uri);
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.redirect_uris).toEqual([uri]);
  });

  it.each([
    ["cursor://anysphere.cursor-mcp/oauth/callback"],
    ["vscode://vscode.github-authentication/did-authenticate"],
    ["myapp:/callback"],
    ["com.:/cb"],
    ["com..example:/cb"],
    ["com.-example:/cb"],
    ["com.example-:/cb"],
    ["com+example.app:/cb"],
    [`com.${"a".repeat(64)}:/cb`],
  ])("refuses %s: not a reversed domain name with a period", async (uri) => {
    const { status, body } = await registerNative(uri);
    expect([status, body.error], uri).toEqual([400, "invalid_redirect_uri"]);
    expect(body.error_description).toContain("a private-use scheme must be a domain name the app's developer controls, reversed");
    expect(body.error_description).toContain(`${new URL(uri).protocol} is not`);
  });

  it.each([
    ["search-ms:query=invoice&crumb=location:\\\\evil.example\\share"],
    ["search:query=invoice"],
    ["ms-settings:privacy"],
    ["ms-word:ofe|u|https://evil.example/a.docx"],
    ["ms-msdt:/id%20PCWDiagnostic"],
    ["shell:startup"],
    ["file:///etc/passwd"],
    ["javascript:alert(1)"],
    ["data:text/html,x"],
    ["vbscript:msgbox"],
    ["about:blank"],
    ["blob:https://evil.example/1"],
    ["view-source:https://evil.example/"],
    ["chrome://settings"],
    ["chrome-extension://abcdefghijklmnop/cb"],
    ["edge://settings"],
    ["microsoft-edge:https://evil.example/"],
    ["microsoft.windows.camera:cb"],
    ["intent://scan/cb"],
    ["itms-apps://apps.apple.com/app/id1"],
    ["x-apple.systempreferences:com.apple.preference.security"],
    ["facetime-audio:+15555550100"],
    ["tel:+15555550100"],
    ["sms:+15555550100"],
    ["mailto:someone@evil.example"],
    ["ws://evil.example/cb"],
    ["wss://evil.example/cb"],
    ["ftp://evil.example/cb"],
  ])("refuses %s: a scheme the operating system or a browser owns", async (uri) => {
    for (const type of ["native", "web"]) {
      const { status, body } = await register({ application_type: type, redirect_uris: [uri], token_endpoint_auth_method: "none" });
      expect([status, body.error], `${type} ${uri}`).toEqual([400, "invalid_redirect_uri"]);
      expect(body.error_description).toContain(`the scheme ${new URL(uri).protocol} belongs to the operating system or a browser`);
    }
  });

  it("finds every entry of the list, prefixes by their beginning, and nothing a reversed domain name of an app is", () => {
    for (const entry of systemSchemes) {
      const scheme = entry.endsWith("*") ? `${entry.slice(0, -1)}anything` : entry;
      expect(systemScheme(scheme), entry).toBe(entry);
    }
    for (const scheme of ["com.example.app", "com.microsoft.teams", "com.google.chrome.ios", "org.mozilla.firefox", "searchlight.example"])
      expect(systemScheme(scheme), scheme).toBeUndefined();
    expect(isReversedDomainName("com.example.app")).toBe(true);
    expect(isReversedDomainName("cursor")).toBe(false);
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
  const accepted = hostedClients.filter((c) => !c.refused);
  const refused = hostedClients.filter((c) => c.refused);

  it("refuses Cursor alone among today's clients: its cursor: deep link is not a reversed domain name", () => {
    expect(refused.map((c) => c.name)).toEqual(["Cursor"]);
  });

  it.each(accepted.map((c) => [c.name, c] as const))("%s registers as it asks, and as it is inferred", async (_name, client) => {
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

  it.each(refused.map((c) => [c.name, c] as const))(
    "%s is refused as it registers today (invalid_redirect_uri, saying which URI and why); what it would need is accepted",
    async (_name, client) => {
      const asked = { client_name: client.name, grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none" };
      for (const declared of [{}, { application_type: client.application_type }]) {
        const { status, body } = await register({ ...asked, redirect_uris: client.redirect_uris, ...declared });
        expect([status, body.error]).toEqual([400, "invalid_redirect_uri"]);
        expect(String(body.error_description).startsWith(`${JSON.stringify(client.refused!.uri)}: `), String(body.error_description)).toBe(
          true,
        );
        expect(body.error_description).toContain("reversed, with at least one period");
      }
      const { status, body } = await register({ ...asked, redirect_uris: client.refused!.needs });
      expect(status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({ redirect_uris: client.refused!.needs, application_type: client.application_type });
    },
  );
});
