import { describe, expect, inject, it } from "vitest";
import type { IndexablePage } from "../../src/resources/pages.ts";

const base = inject("baseUrl");
const get = (path: string) => fetch(`${base}${path}`);

describe("site-level discovery documents", () => {
  it("robots.txt names AI crawlers explicitly and states Content Signals", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(body).toMatch(/^User-agent: \*$/m);
    for (const bot of ["GPTBot", "ClaudeBot", "Google-Extended", "PerplexityBot", "CCBot"]) expect(body).toContain(`User-agent: ${bot}`);
    expect(body).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=no$/m);
    expect(body).toContain(`Sitemap: ${base}/sitemap.xml`);
  });

  it("sitemap.xml lists exactly the pages the pages resource lists", async () => {
    const res = await get("/sitemap.xml");
    expect(res.headers.get("content-type")).toMatch(/xml/);
    const locs = [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const { pages } = (await (await get("/api/v1/pages")).json()) as { pages: IndexablePage[] };
    expect(locs).toEqual(pages.map((p) => p.url));
  });

  it("llms.txt links every page's Markdown twin, each of which answers", async () => {
    const body = await (await get("/llms.txt")).text();
    expect(body).toMatch(/^# \S/);
    const { pages } = (await (await get("/api/v1/pages")).json()) as { pages: IndexablePage[] };
    for (const page of pages) expect(body).toContain(`](${page.markdown_url})`);
    const full = await (await get("/llms-full.txt")).text();
    for (const page of pages) expect(full).toContain(`<!-- ${page.url} -->`);
  });
});
