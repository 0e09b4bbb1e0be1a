import { chromium, type Browser } from "playwright-core";

/**
 * Debian's Chromium (a Playwright browser download is impossible on these machines), headless and offline; `args`
 * adds switches, such as `--enable-features=WebMCP`.
 */
export const launchChromium = (args: string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...args],
  });
