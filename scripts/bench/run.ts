import "../node-check.ts";
import "../lib/text-imports.ts";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * npm run bench [name]: runs every scripts/bench/*.bench.ts (or those whose file name contains `name`) in turn and
 * prints its figures. Timings are never asserted. On a fresh clone it builds the site first.
 */
const folder = fileURLToPath(new URL(".", import.meta.url));
const root = join(folder, "../..");
if (!existsSync(join(root, "dist/index.html"))) {
  console.log("dist/ is missing: building the site first ...");
  const build = spawnSync(process.execPath, [join(root, "node_modules/astro/bin/astro.mjs"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const only = process.argv[2];
for (const file of (await readdir(folder)).filter((f) => f.endsWith(".bench.ts")).sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n## ${file}\n`);
  const bench = (await import(new URL(file, import.meta.url).href)) as { default: () => Promise<void> };
  await bench.default();
}
