import { readDotEnv } from "../../scripts/runtime/config.ts";
import { planLocalCalCom } from "../../scripts/runtime/cal-com.ts";
import { buildSettingNames } from "../../src/config/settings.ts";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { patientDeadlines } from "./patience.ts";

/** The checkout the suite runs in. */
export const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * For a file that starts `npm start` runtimes of its own beside the suite's: they share the checkout, so they take the
 * variables the suite's build read, its base URL and signing keys among them (dist/ is not rebuilt under the suite), and
 * the .env.runtime that `npm run leads` finds the suite's running store through is put back after them. Gives the variables such a runtime starts with,
 * its deadlines the suite's (tests/support/patience.ts).
 */
export function besideTheSuite(): () => NodeJS.ProcessEnv {
  const envRuntime = join(root, ".env.runtime");
  let suiteEnvRuntime: string;
  let sameSite: NodeJS.ProcessEnv;
  beforeAll(async () => {
    suiteEnvRuntime = await readFile(envRuntime, "utf8");
    sameSite = { ...(await suiteBuildVariables(root)), ...patientDeadlines };
  });
  afterAll(async () => {
    await writeFile(envRuntime, suiteEnvRuntime, { mode: 0o600 });
  });
  return () => sameSite;
}

/**
 * Every variable the build reads as the suite's runtime had it (its .env.runtime; none without one), so the same dist/
 * serves another runtime unbuilt; but those npm start sets for its Cal.com stand-in: given them, that runtime would take
 * Cal.com as configured and call the real one. It plans a stand-in of its own, and its build sees booking offered as the
 * suite's did.
 */
export async function suiteBuildVariables(checkout: string): Promise<NodeJS.ProcessEnv> {
  const standIn: Record<string, string> = {};
  planLocalCalCom(standIn);
  const suite = await readDotEnv(join(checkout, ".env.runtime"));
  const taken = buildSettingNames.filter((name) => suite[name] !== undefined && !(name in standIn));
  return Object.fromEntries(taken.map((name) => [name, suite[name]]));
}
