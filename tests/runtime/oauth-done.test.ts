import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type CallToolResult,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import * as oauth from "oauth4webapi";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { launchChromium } from "../support/browser.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { authorizeUrl, discover, insecure, postConsent, register } from "../support/oauth-client.ts";

/**
 * Issue 16's "done when", through the local runtime: a Claude-style client (a client ID metadata document, `none` and
 * PKCE, consent clicked in Chromium), a Cursor-style client (dynamic registration, driven by the v2 SDK's own OAuth
 * flow) and a machine client (client_credentials) each get a token and file a dry_run brief through /mcp.
 */
const base = inject("baseUrl");
const endpoint = `${base}/mcp`;
const modern = eras.find((e) => e.era === "modern")!;
let browser: Browser;
let callback: Server;
let callbackUrl: string;
let documentServer: Server;
let documentUrl: string;

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  browser = await launchChromium();
  callback = createServer((_req, res) => res.end("You can close this window."));
  callbackUrl = `${await listen(callback)}/callback`;
  documentServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: "Claude-style client",
        redirect_uris: ["http://127.0.0.1/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
      }),
    );
  });
  documentUrl = `${await listen(documentServer)}/oauth/client-metadata.json`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => callback?.close(r));
  await new Promise((r) => documentServer?.close(r));
});

async function fileDryRun(transport: ConstructorParameters<typeof StreamableHTTPClientTransport>[1]) {
  const client = await connectMcp(endpoint, modern, transport);
  const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
  await client.close();
  return result;
}

describe("each kind of client gets a token and files a dry_run brief through /mcp", () => {
  it("a Claude-style client: metadata document, none + PKCE, consent clicked in Chromium", async () => {
    const as = await discover(base);
    const client: oauth.Client = { client_id: documentUrl, token_endpoint_auth_method: "none" };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const page = await browser.newPage();
    await page.goto(
      authorizeUrl(as, {
        client_id: documentUrl,
        redirect_uri: callbackUrl,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        state,
        scope: "svc:brief",
        resource: endpoint,
      }).href,
    );
    expect(await page.locator(".consent").textContent()).toContain("Claude-style client");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.getByRole("button", { name: "Approve" }).click()]);
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    await page.close();
    const token = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callbackUrl, verifier, insecure),
    );
    const result = await fileDryRun({ requestInit: { headers: { Authorization: `Bearer ${token.access_token}` } } });
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
  });

  it("a Cursor-style client: the SDK's 401, discovery, dynamic registration, consent, token", async () => {
    const saved: {
      discovery?: OAuthDiscoveryState;
      client?: StoredOAuthClientInformation;
      tokens?: StoredOAuthTokens;
      verifier?: string;
      landed?: URL;
    } = {};
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:50321/callback",
      clientMetadata: {
        client_name: "Cursor-style client",
        redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback", "http://127.0.0.1:50321/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "svc:brief",
      },
      clientInformation: () => saved.client,
      saveClientInformation: (info) => void (saved.client = info),
      tokens: () => saved.tokens,
      saveTokens: (tokens) => void (saved.tokens = tokens),
      saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
      codeVerifier: () => saved.verifier!,
      saveDiscoveryState: (state) => void (saved.discovery = state),
      discoveryState: () => saved.discovery,
      // The person approves on the consent page; the answer's Location is where the browser would land.
      redirectToAuthorization: async (url) => {
        const as = await discover(base);
        const page = await fetch(url, { redirect: "manual" });
        const requestToken = /name="request" value="([^"]+)"/.exec(await page.text())![1]!;
        const answer = await postConsent(as, { request: requestToken, decision: "approve" }, page.headers.get("set-cookie")!.split(";")[0]);
        saved.landed = new URL(answer.headers.get("location")!);
      },
    };
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider });
    // Connecting needs no token (reads are anonymous); the brief's 401 starts the flow.
    const client = await connectMcp(endpoint, modern, { authProvider: provider });
    await expect(client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })).rejects.toThrow(
      UnauthorizedError,
    );
    await client.close();
    expect(saved.client).toMatchObject({
      application_type: "native",
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "none",
    });
    expect(saved.landed?.searchParams.get("iss")).toBe(base);
    await transport.finishAuth(saved.landed!.searchParams);
    expect(saved.tokens?.access_token).toBeTruthy();
    const result = await fileDryRun({ authProvider: provider });
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
  });

  it("a machine client: client_credentials through the SDK's ClientCredentialsProvider", async () => {
    const as = await discover(base);
    const registered = await register(as, { client_name: "Machine client", grant_types: ["client_credentials"], scope: "svc:brief" });
    const authProvider = new ClientCredentialsProvider({
      clientId: registered.client_id,
      clientSecret: registered.client_secret as string,
      expectedIssuer: base,
      scope: "svc:brief",
    });
    const result = await fileDryRun({ authProvider });
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
  });
});
