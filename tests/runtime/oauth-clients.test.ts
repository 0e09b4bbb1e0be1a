import * as oauth from "oauth4webapi";
import { describe, expect, inject, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { hostedClients } from "../support/hosted-clients.ts";
import { consentByHttp, discover } from "../support/oauth-client.ts";

/**
 * Today's hosted and desktop clients through the local runtime: each registers with its own redirect URIs and gets a
 * code sent back to each of them; and every door's challenge leads a client to metadata naming the URL it called.
 */
const base = inject("baseUrl");

describe("the hosted clients' redirect URIs", () => {
  it.each(hostedClients.map((c) => [c.name, c] as const))("%s registers and gets a code at each redirect URI", async (_name, client) => {
    const as = await discover(base);
    const registration = await (
      await fetch(as.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: client.name,
          redirect_uris: client.redirect_uris,
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
        }),
      })
    ).json();
    expect(registration).toMatchObject({ application_type: client.application_type, grant_types: ["authorization_code"] });
    for (const registered of client.redirect_uris) {
      // A loopback listener's port is chosen at run time (RFC 8252 §7.3).
      const redirect = registered.startsWith("http://127.0.0.1/") ? registered.replace("127.0.0.1", "127.0.0.1:50123") : registered;
      const verifier = oauth.generateRandomCodeVerifier();
      const { location } = await consentByHttp(as, {
        client_id: registration.client_id,
        redirect_uri: redirect,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        state: "hosted",
        scope: "svc:brief",
        resource: `${base}/mcp`,
      });
      expect(location.href.startsWith(`${new URL(redirect).href}?`), `${location.href} for ${redirect}`).toBe(true);
      expect(location.searchParams.get("code")).toBeTruthy();
      expect(location.searchParams.get("iss")).toBe(as.issuer);
      expect(location.searchParams.get("state")).toBe("hosted");
    }
  });
});

describe("protected resource metadata", () => {
  const doors: { name: string; url: string; init: RequestInit; resource: string }[] = [
    {
      name: "MCP",
      url: `${base}/mcp`,
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
      url: `${base}/a2a/v1`,
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
      url: `${base}/api/v1/briefs`,
      init: { headers: { "content-type": "application/json" }, body: JSON.stringify(freshBrief()) },
      resource: base,
    },
  ];

  it.each(doors.map((d) => [d.name, d] as const))(
    "%s: the challenge's resource_metadata is absolute and names a document whose resource is the URL exactly",
    async (_name, door) => {
      const res = await fetch(door.url, { method: "POST", ...door.init });
      expect(res.status).toBe(401);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(res.headers.get("www-authenticate") ?? "")?.[1];
      expect(metadataUrl).toBeTruthy();
      // Absolute: it parses without a base, and says the same as written.
      expect(new URL(metadataUrl!).href).toBe(metadataUrl);
      // RFC 9728 §3.1: the well-known path inserted between the resource's origin and its path.
      const resource = new URL(door.resource);
      expect(metadataUrl).toBe(`${resource.origin}/.well-known/oauth-protected-resource${resource.pathname.replace(/\/$/, "")}`);
      const document = (await (await fetch(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] };
      // String equality, as VS Code compares: no trailing-slash difference.
      expect(document.resource).toBe(door.resource);
      expect(document.authorization_servers).toEqual([base]);
    },
  );
});
