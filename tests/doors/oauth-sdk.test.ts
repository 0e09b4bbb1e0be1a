import { StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult } from "@modelcontextprotocol/client";
import type * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { fileDeployment } from "../support/deployment.ts";
import { connectMcp, eras, text } from "../support/mcp-client.ts";
import { expectTokenAfterChallenge, keyedProvider, personApproving, recording } from "../support/mcp-oauth.ts";
import { discover } from "../support/oauth-client.ts";

/**
 * What an agent finds from a door alone, in-process on a local site (so that the ChatGPT-style client's metadata
 * document may live on loopback): each door's 401 leads to protected resource metadata naming the URL called, and the
 * v2 MCP SDK's own OAuth gets a token from there and files a dry_run brief, a desktop client (dynamic registration,
 * consent posted as its form posts it) and a machine client with the SDK's PrivateKeyJwtProvider in both protocol eras.
 * tests/doors/mcp.test.ts has the SDK's ClientCredentialsProvider; tests/runtime/oauth.test.ts runs the
 * PrivateKeyJwtProvider through `npm start`.
 */
const base = "http://localhost:8888";
const endpoint = `${base}/mcp`;
const d = fileDeployment("local", { baseUrl: base, env: { FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" } }).d;
let as: oauth.AuthorizationServer;
let documents: DocumentHost;

beforeAll(async () => {
  as = await discover(base, d.fetchFrom());
  documents = await startDocumentHost();
});
afterAll(async () => {
  await documents?.close();
});

describe("the v2 MCP SDK's OAuth, through /mcp", () => {
  const modern = eras.find((e) => e.era === "modern")!;

  it("a desktop client: the SDK's 401, discovery, dynamic registration, consent, token, a dry_run brief", async () => {
    const http = d.fetchFrom();
    const { provider, saved } = personApproving({
      browser: http,
      redirectUrl: "http://127.0.0.1:50321/callback",
      clientMetadata: {
        // Registered as Cursor registers, but with a private-use scheme that is a reversed domain name (RFC 8252 §7.1).
        client_name: "Desktop client",
        redirect_uris: ["com.example.desktop://oauth/callback", "http://127.0.0.1:50321/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "svc:brief",
      },
    });
    // Connecting needs no token (reads are anonymous); the brief's 401 starts the flow.
    const first = await connectMcp(endpoint, modern, { authProvider: provider, fetch: http });
    await expect(first.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })).rejects.toThrow(
      UnauthorizedError,
    );
    await first.close();
    expect(saved.client).toMatchObject({
      application_type: "native",
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "none",
    });
    expect(saved.landed?.searchParams.get("iss")).toBe(base);
    await new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider, fetch: http }).finishAuth(
      saved.landed!.searchParams,
    );
    expect(saved.tokens?.access_token).toBeTruthy();

    const client = await connectMcp(endpoint, modern, { authProvider: provider, fetch: http });
    const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
    await client.close();
  });

  describe.each(eras)("a ChatGPT-style machine client: the SDK's PrivateKeyJwtProvider $mode", (era) => {
    it("meets the 401, discovers, gets a token with its assertion and files a dry_run brief", async () => {
      const agent = await documents.publishKeyedClient(`/agent-${era.era}.json`, {
        client_name: "Keyed machine agent",
        grant_types: ["client_credentials"],
      });
      const { fetch: recorded, seen } = recording(d.fetchFrom());
      const authProvider = keyedProvider(agent, base);
      const client = await connectMcp(endpoint, era, { authProvider, fetch: recorded });
      const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
      expect(text(result)).toContain("Nothing was filed");
      expectTokenAfterChallenge(seen);
      expect(authProvider.tokens()?.scope).toBe("svc:read svc:brief");
      await client.close();
    });
  });
});

describe("protected resource metadata", () => {
  const doors: { name: string; path: string; init: RequestInit; resource: string }[] = [
    {
      name: "MCP",
      path: "/mcp",
      init: {
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "submit_project_brief", arguments: freshBrief() },
        }),
      },
      resource: `${base}/mcp`,
    },
    {
      name: "A2A",
      path: "/a2a/v1",
      init: {
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "SendMessage",
          params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ data: freshBrief() }] } },
        }),
      },
      resource: `${base}/a2a/v1`,
    },
    {
      name: "REST",
      path: "/api/v1/briefs",
      init: { headers: { "content-type": "application/json" }, body: JSON.stringify(freshBrief()) },
      resource: base,
    },
  ];

  it.each(doors.map((door) => [door.name, door] as const))(
    "%s: the challenge's resource_metadata is absolute and names a document whose resource is the URL exactly",
    async (_name, door) => {
      const http = d.fetchFrom();
      const res = await http(`${base}${door.path}`, { method: "POST", ...door.init });
      expect(res.status).toBe(401);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(res.headers.get("www-authenticate") ?? "")?.[1];
      expect(metadataUrl).toBeTruthy();
      // Absolute: it parses without a base, and says the same as written.
      expect(new URL(metadataUrl!).href).toBe(metadataUrl);
      // RFC 9728 §3.1: the well-known path inserted between the resource's origin and its path.
      const resource = new URL(door.resource);
      expect(metadataUrl).toBe(`${resource.origin}/.well-known/oauth-protected-resource${resource.pathname.replace(/\/$/, "")}`);
      const document = (await (await http(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] };
      // String equality, as VS Code compares: no trailing-slash difference.
      expect(document.resource).toBe(door.resource);
      expect(document.authorization_servers).toEqual([base]);
    },
  );
});
