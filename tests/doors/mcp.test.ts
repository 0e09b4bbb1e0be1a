import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpCall } from "../support/calls.ts";
import { installClock, type TestClock } from "../support/clock.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * /mcp in-process, built as functions/mcp.ts builds it, for what the local runtime cannot give a test: a client address
 * of its own and a quota window that starts when the test does. tests/runtime/mcp.test.ts drives it end to end.
 */
let clock: TestClock;
let d: Deployment;
beforeAll(async () => {
  clock = installClock();
  d = await startDeployment("local");
});
afterAll(async () => {
  await d.settle();
  await d.close();
  clock.restore();
});

describe("the /mcp quota: 120 requests per 60 seconds per client IP", () => {
  it("counts down on every response and refuses the 121st with 429, Retry-After and a JSON-RPC error", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    // Ten at a time: the count is exact under concurrent requests too.
    const remaining: number[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => d.mcp({ method: i % 2 ? "GET" : "DELETE" }, ip)));
      for (const res of responses) {
        expect(res.status).toBe(405);
        const match = /^"mcp";r=(\d+);t=\d+$/.exec(res.headers.get("ratelimit") ?? "");
        expect(match).not.toBeNull();
        remaining.push(Number(match![1]));
        await res.body?.cancel();
      }
    }
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    const refused = await d.mcp(mcpCall("ping"), ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(refused.headers.get("ratelimit-reset")));
    // The request was read while it was counted, so its refusal answers its id.
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32090, data: { code: "rate_limited" } } });

    // The next window serves the same client again.
    clock.toNextWindow(60);
    const next = await d.mcp(mcpCall("ping"), ip);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit")).toMatch(/^"mcp";r=119;t=\d+$/);
  });
});
