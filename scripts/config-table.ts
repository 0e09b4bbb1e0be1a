import "./node-check.ts";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configTables, written } from "./lib/config-tables.ts";

// npm run config-table: writes the configuration tables of README.md and docs/configuration.md from src/config/settings.ts.
const root = fileURLToPath(new URL("..", import.meta.url));
for (const { file } of configTables) {
  const path = join(root, file);
  const text = await readFile(path, "utf8");
  const next = written(file, text);
  if (next === text) console.log(`${file}: the configuration table is up to date`);
  else {
    await writeFile(path, next);
    console.log(`${file}: the configuration table is written`);
  }
}
