import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PrivateKeyJwtProvider, type CallToolResult } from "@modelcontextprotocol/client";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { connectMcp, eras, text } from "../support/mcp-client.ts";

/**
 * A ChatGPT-style machine client through `npm start`: the v2 SDK's PrivateKeyJwtProvider, whose client_id is a metadata
 * document on loopback (the test mode) declaring private_key_jwt and client_credentials with a jwks_uri. Given only
 * /mcp, it meets the 401, discovers the authorization server, gets a token with a signed assertion and files a dry run.
 */
const base = inject("baseUrl");
const endpoint = `${base}/mcp`;
let documents: Server;
let clientId: string;
let privateJwk: Record<string, unknown>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  privateJwk = { ...(await exportJWK(privateKey)) };
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), alg: "ES256", use: "sig" }] };
  documents = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    if (req.url === "/jwks.json") return res.end(JSON.stringify(jwks));
    res.end(
      JSON.stringify({
        client_id: clientId,
        client_name: "Keyed machine agent",
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: new URL("/jwks.json", clientId).href,
      }),
    );
  });
  await new Promise<void>((r) => documents.listen(0, "127.0.0.1", r));
  clientId = `http://127.0.0.1:${(documents.address() as AddressInfo).port}/agent.json`;
});
afterAll(() => new Promise((r) => documents?.close(r)));

describe.each(eras)("the SDK's PrivateKeyJwtProvider, a client $mode", (era) => {
  it("meets the 401, discovers, gets a token with its assertion and files a dry_run brief", async () => {
    const seen: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push(`${init?.method ?? "GET"} ${url.pathname} ${response.status}`);
      return response;
    };
    const authProvider = new PrivateKeyJwtProvider({
      clientId,
      privateKey: privateJwk,
      algorithm: "ES256",
      expectedIssuer: base,
      scope: "svc:brief",
    });
    const client = await connectMcp(endpoint, era, { authProvider, fetch: recording });
    const result = (await client.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
    expect(text(result)).toContain("Nothing was filed");
    expect(seen).toEqual(
      expect.arrayContaining([
        "POST /mcp 401",
        "GET /.well-known/oauth-protected-resource/mcp 200",
        "GET /.well-known/oauth-authorization-server 200",
        "POST /oauth/token 200",
        "POST /mcp 200",
      ]),
    );
    expect(seen.indexOf("POST /mcp 401")).toBeLessThan(seen.indexOf("POST /oauth/token 200"));
    expect(authProvider.tokens()?.scope).toBe("svc:read svc:brief");
    await client.close();
  });
});
