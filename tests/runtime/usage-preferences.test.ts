import RobotsTxt from "lighthouse/core/audits/seo/robots-txt.js";
import { describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");
const signal = "search=yes, ai-input=yes, ai-train=no";
const usage = "search=y, train-ai=n";

/** The usage preferences of src/discovery/policy.ts, in Content Signals and in aipref's Content-Usage, as served. */
describe("the usage preferences", () => {
  it.each([
    ["a page", "/offers", {}],
    ["a twin by its URL", "/offers.md", {}],
    ["a twin by negotiation", "/offers", { Accept: "text/markdown" }],
    ["the 404 twin", "/no-such-page", { Accept: "text/markdown" }],
    ["an /api read", "/api/v1/company", {}],
    ["the OpenAPI document", "/api/v1/openapi.json", {}],
  ])("are stated by %s", async (_, path, headers) => {
    const res = await fetch(`${base}${path}`, { headers });
    await res.body?.cancel();
    expect(res.headers.get("content-signal")).toBe(signal);
    expect(res.headers.get("content-usage")).toBe(usage);
  });

  it("are stated in robots.txt: Content Signals in the group for every crawler, Content-Usage as its header", async () => {
    const res = await fetch(`${base}/robots.txt`);
    const robots = await res.text();
    expect(res.headers.get("content-usage")).toBe(usage);
    expect(robots).toMatch(/^User-agent: \*\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n/m);
    expect(robots.match(/^Content-Signal: search=yes, ai-input=yes, ai-train=no$/gm)?.length).toBe(robots.match(/^User-agent: /gm)?.length);
  });

  it("leave robots.txt valid to Lighthouse's robots.txt audit", async () => {
    const res = await fetch(`${base}/robots.txt`);
    const result = RobotsTxt.audit({ RobotsTxt: { status: res.status, content: await res.text() } } as never);
    expect(result.details?.type === "table" ? result.details.items : [], "the lines Lighthouse refuses").toEqual([]);
    expect(result.score).toBe(1);
  });
});
