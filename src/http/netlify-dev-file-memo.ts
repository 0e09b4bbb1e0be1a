import { createHash } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RefusalMemo, StoredResponse } from "./netlify-dev.ts";

/**
 * The memo of a function under netlify dev, in files: every call runs in a fresh worker of the same machine, and a
 * file is the cheapest thing two workers share (no HTTP client to load in each). `namespace` keeps apart runtimes that
 * run side by side (the tests start several); entries older than `seconds` are ignored.
 */
export function fileMemo(namespace: string, seconds = 30): RefusalMemo {
  const dir = join(tmpdir(), "frontdoor-netlify-dev", createHash("sha256").update(namespace).digest("hex").slice(0, 16));
  const file = (key: string) => join(dir, `${createHash("sha256").update(key).digest("hex")}.json`);
  return {
    get: async (key) => {
      try {
        const path = file(key);
        // mtimeMs has a finer grain than Date.now(), so a file written within the same millisecond can seem from the future.
        if (Math.max(0, Date.now() - (await stat(path)).mtimeMs) >= seconds * 1000) return undefined;
        return JSON.parse(await readFile(path, "utf8")) as StoredResponse;
      } catch {
        return undefined;
      }
    },
    set: async (key, response) => {
      await mkdir(dir, { recursive: true });
      await writeFile(file(key), JSON.stringify(response));
    },
    delete: (key) => rm(file(key), { force: true }),
  };
}
