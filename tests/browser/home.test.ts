import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/browser.ts";

/** What a person sees, in Debian's Chromium (a Playwright browser download is impossible on these machines). */
const base = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe("the home page in a browser", () => {
  it("shows the studio, its navigation, what it does and its results, with no script", async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    const res = await page.goto(`${base}/`);
    expect(res?.status()).toBe(200);

    await expect(page.title()).resolves.toContain("Kestrel Studio");
    const h1 = page.getByRole("heading", { level: 1 });
    expect(await h1.isVisible()).toBe(true);
    expect(await h1.textContent()).toContain("Marketing sites that load fast");

    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Services", "Work", "Offers", "Contact", "Developers"]);
    expect(await page.getByRole("heading", { name: "What we do" }).isVisible()).toBe(true);
    expect(await page.locator(".result .change").count()).toBeGreaterThanOrEqual(3);
    expect(await page.getByText("Sample content.").isVisible()).toBe(true);
    // Structured data only: no script that runs.
    expect(await page.locator('script:not([type="application/ld+json"])').count()).toBe(0);
    expect(await page.locator('script[type="application/ld+json"]').count()).toBe(1);
    expect(scripts).toEqual([]);
    await page.close();
  });

  it("offers a skip link as the first stop of the keyboard", async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    expect(await focused.textContent()).toBe("Skip to content");
    expect(await focused.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    // The fragment's navigation follows the key press; on a loaded machine, not at once.
    await page.waitForURL((url) => url.hash === "#main");
    await page.close();
  });

  it("fits a 320px-wide phone without horizontal scrolling", async () => {
    const page = await browser.newPage({ viewport: { width: 320, height: 640 } });
    await page.goto(`${base}/`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await page.close();
  });
});
