import { describe, expect, inject, it } from "vitest";
import { statusOf } from "../support/http.ts";
import { netlifyDevAt } from "../support/netlify-dev-process.ts";

/**
 * netlify dev ends itself on any error it does not catch, and npm start's front then has no one to hand requests to.
 * The own-runtime project's runtime is the one killed, beside the suite's: its files run one at a time, and this one
 * waits until it serves again, so the next file meets a runtime that came back.
 */
const base = inject("baseUrl");

const answers = (url: string) => statusOf(url).catch(() => 0);

describe("npm start, when netlify dev dies", () => {
  it("starts it again behind a new front, which then serves as before", async () => {
    const { port } = new URL(base);
    const first = await netlifyDevAt(port);
    expect(first).toBeDefined();
    process.kill(first!, "SIGKILL");
    await expect.poll(() => answers(`${base}/api/v1`), { interval: 500 }).toBe(200);
    expect(await answers(`${base}/mcp/server-card`)).toBe(200);
    expect(await netlifyDevAt(port)).not.toBe(first);
  });
});
