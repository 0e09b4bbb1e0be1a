import { fileURLToPath } from "node:url";
import { startIsolatedRuntime } from "../runtime/isolated.ts";
import { describeFigures, measure } from "./stats.ts";

/**
 * A short smoke run through the local runtime (netlify dev), for information only: the emulator starts a worker
 * thread per function call and is not what Netlify runs, so these figures describe this machine's emulator, not the
 * product. The in-process benches are the ones that count.
 */
export default async function emulatorBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const runtime = await startIsolatedRuntime(root);
  const base = runtime.url;
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const calls: [string, () => Promise<Response>][] = [
    ["GET /services (static HTML)", () => fetch(`${base}/services`)],
    ["GET /services, Accept: text/markdown (edge)", () => fetch(`${base}/services`, { headers: { accept: "text/markdown" } })],
    ["GET /api/v1/company (edge gateway, quota)", () => fetch(`${base}/api/v1/company`)],
    [
      "POST /mcp tools/list (function)",
      () => fetch(`${base}/mcp`, { method: "POST", headers: json, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }),
    ],
    [
      "POST /a2a/v1 read skill (function)",
      () =>
        fetch(`${base}/a2a/v1`, {
          method: "POST",
          headers: { ...json, "a2a-version": "1.0" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "SendMessage",
            params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data: { skill: "offers" } }] } },
          }),
        }),
    ],
  ];
  try {
    console.log(`netlify dev at ${base}; 20 sequential calls each after 3 warm-up calls (information only)\n`);
    for (const [label, call] of calls) {
      const figures = await measure(
        async () => {
          const response = await call();
          if (!response.ok) throw new Error(`${label}: ${response.status}`);
          await response.arrayBuffer();
        },
        { warmup: 3, count: 20 },
      );
      console.log(describeFigures(label, figures));
    }
  } finally {
    await runtime.stop();
  }
}
