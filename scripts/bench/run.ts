import "../node-check.ts";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** npm run bench: runs every scripts/bench/*.bench.ts in turn and prints its figures. Timings are never asserted. */
const folder = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv[2];
for (const file of (await readdir(folder)).filter((f) => f.endsWith(".bench.ts")).sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n## ${file}\n`);
  const bench = (await import(new URL(file, import.meta.url).href)) as { default: () => Promise<void> };
  await bench.default();
}
