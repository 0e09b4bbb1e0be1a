import { constants } from "node:fs";
import { copyFile, rm } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";

/**
 * Moves `file` next to itself as `<name>.unreadable-<UTC time>.json` and returns the new path. It never replaces a
 * file: a name already taken gets a counter.
 */
export async function keepAside(file: string, now = new Date()): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  const name = basename(file, extname(file));
  for (let attempt = 1; ; attempt += 1) {
    const aside = join(dirname(file), `${name}.unreadable-${stamp}${attempt > 1 ? `-${attempt}` : ""}${extname(file) || ".json"}`);
    try {
      await copyFile(file, aside, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    await rm(file);
    return aside;
  }
}
