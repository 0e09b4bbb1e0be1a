import { describe, expect, it } from "vitest";
import { expectQuotaHeaders } from "../support/api-quota.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * The /api edge gateway in-process, built as functions/edge/api.ts builds it, with the reads behind it: the quota run
 * to its end from a client address of its own, in a window that starts with the test. tests/runtime/api.test.ts
 * covers the rest of /api end to end.
 */
const { d, clock } = fileDeployment("local", { clock: true });

describe("the quota: 120 requests per 60 seconds per client IP", () => {
  it("counts down on every response and refuses the 121st with rate_limited and Retry-After", async () => {
    clock.toNextWindow(60);
    const ip = d.nextIp();
    for (let i = 1; i <= 120; i++) {
      const res = await d.api(i % 2 ? "/api/v1/company" : "/api/v1/nope", {}, ip);
      expect(res.status).toBe(i % 2 ? 200 : 404);
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"public-api";r=${120 - i};t=\\d+$`));
      await res.body?.cancel();
    }
    const refused = await d.api("/api/v1/company", {}, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expectQuotaHeaders(refused);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(refused.headers.get("ratelimit-reset")));
    expect(((await refused.json()) as { code: string }).code).toBe("rate_limited");
  });
});
