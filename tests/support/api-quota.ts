import { expect } from "vitest";

/** The public-api quota as every /api response reports it: the draft's fields and the older ones, agreeing. */
export const expectQuotaHeaders = (res: Response) => {
  expect(res.headers.get("ratelimit-policy")).toBe('"public-api";q=120;w=60');
  const match = /^"public-api";r=(\d+);t=(\d+)$/.exec(res.headers.get("ratelimit") ?? "");
  expect(match, `RateLimit on ${res.url}`).not.toBeNull();
  expect(res.headers.get("ratelimit-limit")).toBe("120");
  expect(res.headers.get("ratelimit-remaining")).toBe(match![1]);
  expect(res.headers.get("ratelimit-reset")).toBe(match![2]);
};
