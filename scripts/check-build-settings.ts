import "./node-check.ts";
import { bookingOffered } from "../src/booking/config.ts";
import { ConfigurationError, platformEnv } from "../src/config/env.ts";
import { buildSettingNames, settingsFrom } from "../src/config/settings.ts";

// npm run build: the variables the build reads, checked before Astro starts, so a wrong one is one line naming it (as npm
// start says it), never a stack trace from inside the build with dist/ half written.
try {
  const settings = settingsFrom(platformEnv);
  // Cal.com's event type and key are read as a pair: one without the other is wrong, though each alone parses.
  bookingOffered(settings);
  for (const name of buildSettingNames) settings.get(name);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(`CONFIGURATION ERROR: ${error.message}`);
  process.exit(1);
}
