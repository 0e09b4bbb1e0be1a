import axe from "axe-core";
import * as oauth from "oauth4webapi";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../support/browser.ts";
import { authorizeUrl, discover, register } from "../support/oauth-client.ts";

/**
 * axe-core, the accessibility engine behind most audit tools, on every page a person can reach: each page the pages
 * resource lists, the 404 page, and the OAuth consent screen and its error page, in the light and the dark colour
 * scheme. Two browser pages share the visits (each tab's renderer takes a core); each scheme is emulated on the loaded
 * page, so nothing loads twice. axe comes with every document as an init script: about
 * a seventh less time in all than evaluating its 0.5 MB after each load.
 */
const base = inject("baseUrl");
let browser: Browser;
let tabs: Page[];

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.addInitScript({ content: axe.source });
  tabs = [await context.newPage(), await context.newPage()];
});
afterAll(() => browser?.close());

/** axe's violations on the loaded page in each colour scheme, one line per rule and element. */
async function violations(page: Page): Promise<string[]> {
  const found: string[] = [];
  // The dark scheme changes colours only (src/styles/site.css), so only the rules about colour run again in it.
  for (const [colorScheme, rules] of [
    ["light", undefined],
    ["dark", ["color-contrast", "link-in-text-block"]],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    const options = { resultTypes: ["violations"], ...(rules ? { runOnly: { type: "rule", values: [...rules] } } : {}) } as axe.RunOptions;
    const { violations } = await page.evaluate((options) => window.axe.run(document, options), options);
    for (const v of violations) for (const node of v.nodes) found.push(`${colorScheme}: ${v.id} at ${node.target.join(" ")}: ${v.help}`);
  }
  return found;
}

/** Loads each URL, expecting its status, and gives every violation found, with its URL; the tabs take turns. */
async function audit(...visits: [url: string, status: number][]): Promise<string[]> {
  const found = await Promise.all(
    tabs.map(async (page, tab) => {
      const seen: string[] = [];
      for (const [url, status] of visits.filter((_, i) => i % tabs.length === tab)) {
        expect((await page.goto(url))?.status(), url).toBe(status);
        seen.push(...(await violations(page)).map((v) => `${url} ${v}`));
      }
      return seen;
    }),
  );
  return found.flat();
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}

describe("axe-core in both colour schemes", () => {
  it("finds nothing on any page of the site, nor on the 404 page", async () => {
    const { pages } = (await (await fetch(`${base}/api/v1/pages`)).json()) as { pages: { url: string }[] };
    expect(pages.length).toBeGreaterThanOrEqual(9);
    expect(await audit(...pages.map(({ url }): [string, number] => [url, 200]), [`${base}/no-such-page`, 404])).toEqual([]);
  });

  it("finds nothing on the consent screen nor on its error page", async () => {
    const as = await discover(base);
    const client = await register(as, {
      client_name: "Audit",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
    });
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const consent = authorizeUrl(as, {
      client_id: client.client_id,
      redirect_uri: "http://127.0.0.1:9/callback",
      code_challenge: challenge,
      scope: "svc:brief",
    });
    // No client_id: the error page.
    expect(await audit([consent.href, 200], [`${base}/oauth/authorize`, 400])).toEqual([]);
  });
});
