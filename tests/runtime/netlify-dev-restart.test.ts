import { describe, expect, it } from "vitest";
import { startIsolatedRuntime } from "../../scripts/runtime/isolated.ts";
import { besideTheSuite, root } from "../support/beside-the-suite.ts";
import { statusOf } from "../support/http.ts";
import { netlifyDevAt } from "../support/netlify-dev-process.ts";
import { patience } from "../support/patience.ts";

/**
 * netlify dev ends itself on any error it does not catch, and npm start's front then has no one to hand requests to.
 * A runtime of its own (a dead netlify dev in the suite's would fail the next files while it restarts), on the suite's
 * base URL and keys so that dist/ is not rebuilt under the suite; the suite's .env.runtime is put back after it.
 */
const sameSite = besideTheSuite();

const answers = (url: string) => statusOf(url).catch(() => 0);

describe("npm start, when netlify dev dies", () => {
  it("starts it again behind a new front, which then serves as before", async () => {
    const runtime = await startIsolatedRuntime(root, sameSite(), { startLimitMs: patience });
    try {
      const { port } = new URL(runtime.url);
      const first = await netlifyDevAt(port);
      expect(first).toBeDefined();
      process.kill(first!, "SIGKILL");
      await expect.poll(() => answers(`${runtime.url}/api/v1`), { interval: 500 }).toBe(200);
      expect(await answers(`${runtime.url}/mcp/server-card`)).toBe(200);
      expect(await netlifyDevAt(port)).not.toBe(first);
    } finally {
      await runtime.stop();
    }
  });
});
