import "./node-check.ts";
import { fileURLToPath } from "node:url";
import { startRuntime } from "./runtime/runtime.ts";

// npm start: builds if needed and serves the whole site locally through Netlify's own emulation.
const root = fileURLToPath(new URL("..", import.meta.url));
const runtime = await startRuntime({ root, output: (chunk) => process.stdout.write(chunk) }).catch((error: unknown) => {
  console.error(`\nfrontdoor could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

console.log(`\nfrontdoor is running at ${runtime.url} (public base URL ${runtime.config.baseUrl}). Press Ctrl+C to stop.\n`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping ...");
    runtime.stop().then(() => process.exit(0));
  });
}
