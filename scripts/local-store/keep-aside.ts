import { constants } from "node:fs";
import { copyFile, rm } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";

/**
 * Moves each of `files` next to itself as `<name>.unreadable-<UTC time><extension>` (store.json and store.log as
 * store.unreadable-<time>.json and .log, so that files kept aside together keep one name) and returns the new paths in
 * the same order. It never replaces a file: a name already taken gets a counter.
 */
export async function keepAside(files: string[], now = new Date()): Promise<string[]> {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  const asideOf = (file: string, attempt: number) =>
    join(
      dirname(file),
      `${basename(file, extname(file))}.unreadable-${stamp}${attempt > 1 ? `-${attempt}` : ""}${extname(file) || ".json"}`,
    );
  for (let attempt = 1; ; attempt += 1) {
    const copied: string[] = [];
    try {
      for (const file of files) {
        await copyFile(file, asideOf(file, attempt), constants.COPYFILE_EXCL);
        copied.push(asideOf(file, attempt));
      }
    } catch (error) {
      for (const copy of copied) await rm(copy);
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    for (const file of files) await rm(file);
    return copied;
  }
}
