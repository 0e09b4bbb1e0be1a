import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder the site's own modules live in. */
export const src = fileURLToPath(new URL("../../src", import.meta.url));

/** Every module under `dir` (TypeScript and Astro), as a path. */
export function* modules(dir = src): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(path);
    else if (/\.(ts|astro)$/.test(entry.name)) yield path;
  }
}

/**
 * Every relative module a file imports, statically or dynamically (`import type` and `export … from` too), as a path:
 * src/ names each with its extension, so the path is the file.
 */
export const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => resolve(dirname(file), m[1]!));
