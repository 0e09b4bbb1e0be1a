import { accessSync, constants } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where a test's local store keeps its files: in memory (/dev/shm) where the machine has it, else the temporary folder.
 * The store syncs each write to the disk before it answers it, and on a loaded machine a shared disk makes a test of a
 * thousand writes take minutes; what the tests read of the files (their records, the image a crash leaves) is the same.
 */
const root = (() => {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
})();

/** A new folder for a local store's files, named `prefix` and random characters; the caller removes it. */
export const storeFolder = (prefix: string) => mkdtemp(join(root, prefix));
