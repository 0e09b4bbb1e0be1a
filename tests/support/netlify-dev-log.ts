import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { oauthPaths } from "../../src/paths.ts";
import { patience } from "./patience.ts";

/**
 * The function calls netlify dev made while `send` ran, from its own log: its functions server prints
 * `Request from <address>: <METHOD> <url>` for every call it serves, calls again included. A request to the key set
 * with a query of its own marks the end: once its line is in the file, so is every line before it.
 */
export async function functionCallsDuring<T>(
  base: string,
  logFile: string,
  send: () => Promise<T>,
): Promise<{ result: T; calls: string[] }> {
  const start = (await readFile(logFile, "utf8")).length;
  const result = await send();
  const mark = `${oauthPaths.jwks}?mark=${randomUUID()}`;
  await (await fetch(`${base}${mark}`)).body?.cancel();
  const until = Date.now() + patience;
  while (Date.now() < until) {
    const calls = [...(await readFile(logFile, "utf8")).slice(start).matchAll(/Request from .*?: ([A-Z]+) (\S+)/g)].map(
      ([, method, url]) => `${method} ${url}`,
    );
    const end = calls.indexOf(`GET ${mark}`);
    if (end >= 0) return { result, calls: calls.slice(0, end) };
    await sleep(20);
  }
  throw new Error(`netlify dev's log did not show ${mark} within ${patience} ms`);
}
