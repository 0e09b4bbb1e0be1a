import { readFile, writeFile } from "node:fs/promises";
import { generateKeySet, parseKeySet } from "../../src/tokens/keys.ts";

/**
 * Locally, without OAUTH_SIGNING_KEYS, the runtime signs with a key set it generated once into its data folder
 * (git-ignored), so tokens survive restarts. Production never does this: there a missing key set is an error.
 */
export async function localSigningKeys(file: string, log: (line: string) => void): Promise<string> {
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing !== undefined) {
    parseKeySet(existing);
    return JSON.stringify(JSON.parse(existing));
  }
  const text = JSON.stringify(await generateKeySet());
  await writeFile(file, `${text}\n`, { mode: 0o600 });
  log(`OAUTH_SIGNING_KEYS is not set: generated a local signing key set into ${file}.`);
  return text;
}
