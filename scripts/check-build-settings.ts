import "./node-check.ts";
import { bookingOffered } from "../src/booking/config.ts";
import { ConfigurationError, platformEnv } from "../src/config/env.ts";
import { settingsFrom } from "../src/config/settings.ts";

// npm run build: the variables the build reads, checked before Astro starts, so a wrong one is one line naming it (as npm
// start says it), never a stack trace from inside the build with dist/ half written.
try {
  const settings = settingsFrom(platformEnv);
  bookingOffered(settings);
  for (const name of ["URL", "OAUTH_SIGNING_KEYS", "MCP_REGISTRY_NAME", "MCP_REGISTRY_AUTH_PUBLIC_KEY"] as const) settings.get(name);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(`CONFIGURATION ERROR: ${error.message}`);
  process.exit(1);
}
