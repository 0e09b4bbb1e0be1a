import type { CallToolResult } from "@modelcontextprotocol/client";
import * as oauth from "oauth4webapi";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { launchChromium } from "../support/browser.ts";
import { startCallbackServer, startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import { authorizeUrl, discover, insecure, register } from "../support/oauth-client.ts";

/**
 * The consent screen as a person meets it, in Debian's Chromium through `npm start`, with a native app's loopback
 * listener behind it: a registered client (named as unverified, Approve hands a code back, Deny access_denied), a page
 * that cannot be framed, and a Claude-style client (a metadata document on loopback, none + PKCE) whose token files a
 * dry_run brief at /mcp. The screen's refusals and headers are in-process in tests/doors/oauth.test.ts, the other clients
 * in tests/doors/oauth-clients.test.ts and tests/doors/oauth-sdk.test.ts.
 */
const base = inject("baseUrl");
let browser: Browser;
let as: oauth.AuthorizationServer;
let registered: oauth.Client;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let documents: DocumentHost;

beforeAll(async () => {
  [browser, as, callback, documents] = await Promise.all([launchChromium(), discover(base), startCallbackServer(), startDocumentHost()]);
  // Registered without a port: a native app's listener gets any port at run time (RFC 8252 §7.3).
  registered = await register(as, {
    client_name: "Desktop <Agent> & Co",
    redirect_uris: ["http://127.0.0.1/callback"],
    token_endpoint_auth_method: "none",
  });
});
afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await documents?.close();
});

/** An authorization request back to the listener, with its PKCE verifier and state. */
async function request(client: oauth.Client, scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizeUrl(as, {
    client_id: client.client_id,
    redirect_uri: callback.url,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    state,
    scope,
    resource: `${base}/mcp`,
  });
  return { url, verifier, state };
}

/** Clicks a button of the consent screen and gives the URL the browser landed on: where the server redirected it. */
async function click(page: Awaited<ReturnType<Browser["newPage"]>>, button: "Approve" | "Deny") {
  await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)), page.getByRole("button", { name: button }).click()]);
  return new URL(page.url());
}

/** Redeems the code the browser landed with (a public client: none + PKCE). */
async function redeem(client: oauth.Client, landed: URL, { verifier, state }: { verifier: string; state: string }) {
  const params = oauth.validateAuthResponse(as, client, landed, state);
  return oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callback.url, verifier, insecure),
  );
}

describe("the consent screen in a browser", () => {
  it("names a registered client as unverified with its scopes and return host, and Approve hands a code back", async () => {
    const asked = await request(registered, "svc:brief");
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    const response = await page.goto(asked.url.href);
    expect(response?.status()).toBe(200);
    expect(await page.locator(".brand").textContent()).toContain("Kestrel Studio");
    const card = page.locator(".consent");
    expect(await card.getByRole("heading", { level: 1 }).textContent()).toBe("Desktop <Agent> & Co Unverified");
    expect(await card.locator(".consent-scopes li").allTextContents()).toEqual([
      "Read the studio's public information",
      "File a project brief for you: it creates a real lead, and a person answers by e-mail",
    ]);
    expect(await card.textContent()).toContain(new URL(callback.url).host);
    expect(await page.locator("script").count()).toBe(0);
    expect(scripts).toEqual([]);
    const background = await page.evaluate(() => getComputedStyle(document.querySelector(".consent")!).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");

    const token = await redeem(registered, await click(page, "Approve"), asked);
    expect(token.scope).toBe("svc:read svc:brief");
    await page.close();
  });

  it("sends Deny back as access_denied", async () => {
    const asked = await request(registered, "svc:read");
    const page = await browser.newPage();
    await page.goto(asked.url.href);
    const landed = await click(page, "Deny");
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("state")).toBe(asked.state);
    expect(landed.searchParams.get("iss")).toBe(as.issuer);
    await page.close();
  });

  it("cannot be framed by another page: the screen is served, and its frame shows nothing of it", async () => {
    const { url } = await request(registered, "svc:read");
    const page = await browser.newPage();
    const served = page.waitForResponse((r) => r.url() === url.href);
    // setContent waits for the page's load event, which waits for every frame's navigation to end, refused or not; the
    // listener's page, which may be framed, shows that a frame's content is there to be read by then.
    await page.setContent(`<iframe name="consent" src="${url.href}"></iframe><iframe name="control" src="${callback.url}"></iframe>`);
    expect((await served).status()).toBe(200);
    expect(await page.frame("control")!.locator("body").textContent()).toContain("You can close this window.");
    const framed = page.frame("consent");
    expect(framed).not.toBeNull();
    expect(await framed!.locator(".consent").count()).toBe(0);
    await page.close();
  });

  it("a Claude-style client: its metadata document names it, Approve hands a code back, its token files a dry_run brief", async () => {
    const clientId = documents.publishClient("/oauth/client-metadata.json", {
      client_name: "Claude-style client",
      redirect_uris: ["http://127.0.0.1/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
    });
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" };
    const asked = await request(client, "svc:brief");
    const page = await browser.newPage();
    await page.goto(asked.url.href);
    expect(await page.locator(".consent").textContent()).toContain("Claude-style client");
    const token = await redeem(client, await click(page, "Approve"), asked);
    await page.close();

    const mcp = await connectMcp(
      `${base}/mcp`,
      eras.find((e) => e.era === "modern")!,
      {
        requestInit: { headers: { Authorization: `Bearer ${token.access_token}` } },
      },
    );
    const result = (await mcp.callTool({ name: "submit_project_brief", arguments: freshBrief({ dry_run: true }) })) as CallToolResult;
    await mcp.close();
    expect(result.structuredContent).toMatchObject({ dry_run: true, valid: true });
  });
});
