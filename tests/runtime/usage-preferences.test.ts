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

  it("are stated in robots.txt in both syntaxes, in the group for every crawler", async () => {
    const robots = await (await fetch(`${base}/robots.txt`)).text();
    expect(robots).toMatch(
      /^User-agent: \*\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nContent-Usage: search=y, train-ai=n\n/m,
    );
    expect(robots.match(/^Content-Usage: search=y, train-ai=n$/gm)?.length).toBe(robots.match(/^User-agent: /gm)?.length);
  });
});
