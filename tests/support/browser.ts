import { chromium, type Browser } from "playwright-core";
import { chromiumPath } from "../../scripts/lib/chromium.ts";

/**
 * The machine's Chromium (scripts/lib/chromium.ts), headless and offline; `args` adds switches, such as
 * `--enable-features=WebMCP`.
 */
export const launchChromium = (args: string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...args],
  });
