import { chromium, type Browser } from "playwright-core";
import { chromiumPath } from "../../scripts/lib/chromium.ts";
import { patience } from "./patience.ts";

/**
 * The machine's Chromium (scripts/lib/chromium.ts), headless and offline; `args` adds switches, such as
 * `--enable-features=WebMCP`. Every context it opens (and so every page: `newPage` opens one) waits the shared patience
 * for an action or a navigation, not Playwright's own 30 s, which a loaded machine could pass.
 */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...args],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(patience);
    return context;
  };
  return browser;
}
