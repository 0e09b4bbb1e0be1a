import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/browser.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { authorizeUrl, discover, insecure, register } from "../support/oauth-client.ts";

/** The consent screen as a person meets it, in Debian's Chromium, with a native app's loopback listener behind it. */
const base = inject("baseUrl");
let browser: Browser;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let callback: Server;
let callbackUrl: string;

beforeAll(async () => {
  browser = await launchChromium();
  callback = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("You can close this window.");
  });
  await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  as = await discover(base);
  // Registered without a port: a native app's listener gets any port at run time (RFC 8252 §7.3).
  client = await register(as, {
    client_name: "Desktop <Agent> & Co",
    redirect_uris: ["http://127.0.0.1/callback"],
    token_endpoint_auth_method: "none",
  });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => callback?.close(r));
});

async function openConsent(scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizeUrl(as, {
    client_id: client.client_id,
    redirect_uri: callbackUrl,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    state,
    scope,
    resource: `${base}/mcp`,
  });
  const page = await browser.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
  const response = await page.goto(url.href);
  return { page, response, verifier, state, scripts };
}

describe("the consent screen in a browser", () => {
  it("names the client as unverified with its scopes and return host, and Approve hands a code back", async () => {
    const { page, response, verifier, state, scripts } = await openConsent("svc:brief");
    expect(response?.status()).toBe(200);
    expect(await page.locator(".brand").textContent()).toContain("Kestrel Studio");
    const card = page.locator(".consent");
    expect(await card.getByRole("heading", { level: 1 }).textContent()).toBe("Desktop <Agent> & Co Unverified");
    expect(await card.locator(".consent-scopes li").allTextContents()).toEqual([
      "Read the studio's public information",
      "File a project brief for you: it creates a real lead, and a person answers by e-mail",
    ]);
    expect(await card.textContent()).toContain(new URL(callbackUrl).host);
    expect(await page.locator("script").count()).toBe(0);
    expect(scripts).toEqual([]);
    const background = await page.evaluate(() => getComputedStyle(document.querySelector(".consent")!).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");

    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.getByRole("button", { name: "Approve" }).click()]);
    // Where the browser landed: the redirect the authorization server sent it.
    const landed = new URL(page.url());
    const params = oauth.validateAuthResponse(as, client, landed, state);
    const token = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callbackUrl, verifier, insecure),
    );
    expect(token.scope).toBe("svc:read svc:brief");
    await page.close();
  });

  it("sends Deny back as access_denied", async () => {
    const { page, state } = await openConsent("svc:read");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.getByRole("button", { name: "Deny" }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("state")).toBe(state);
    expect(landed.searchParams.get("iss")).toBe(as.issuer);
    await page.close();
  });

  it("cannot be framed by another site", async () => {
    const { page } = await openConsent("svc:read");
    const consentUrl = page.url();
    await page.setContent(`<iframe src="${consentUrl}"></iframe>`);
    await page.waitForTimeout(500);
    const framed = page.frames().find((f) => f !== page.mainFrame());
    expect(
      await framed
        ?.locator(".consent")
        .count()
        .catch(() => 0),
    ).toBe(0);
    await page.close();
  });
});
