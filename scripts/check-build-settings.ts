import "./node-check.ts";
import { ConfigurationError, platformEnv } from "../src/config/env.ts";
import { buildSettingNames, settingsFrom } from "../src/config/settings.ts";

// npm run build: the variables the build reads, checked before Astro starts, so a wrong one is one line naming it (as npm
// start says it), never a stack trace from inside the build with dist/ half written.
try {
  const settings = settingsFrom(platformEnv);
  for (const name of buildSettingNames) settings.get(name);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(`CONFIGURATION ERROR: ${error.message}`);
  process.exit(1);
}
