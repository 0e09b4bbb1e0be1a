import { describe, expect, inject, it } from "vitest";
import type { IndexablePage } from "../../src/resources/pages.ts";
import { statusOf } from "../support/http.ts";

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

describe("links to the machine interfaces", () => {
  it("every HTML page's Link header names its twin, the API catalog, the OpenAPI document and the docs", async () => {
    const res = await get("/");
    const link = res.headers.get("link") ?? "";
    for (const part of [
      '</index.md>; rel="alternate"; type="text/markdown"',
      '</.well-known/api-catalog>; rel="api-catalog"',
      '</api/v1/openapi.json>; rel="service-desc"',
      '</developers>; rel="service-doc"',
      '</llms.txt>; rel="describedby"',
    ])
      expect(link).toContain(part);
    const html = await res.text();
    expect(html).toContain('<link rel="api-catalog" href="/.well-known/api-catalog"');
    expect(html).toMatch(/<script type="application\/ld\+json">\{"@context":"https:\/\/schema.org"/);
  });

  it("the API catalog is an RFC 9727 linkset whose links all answer", async () => {
    const res = await get("/.well-known/api-catalog");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    const { linkset } = (await res.json()) as { linkset: ({ anchor: string } & Record<string, { href: string }[] | string>)[] };
    expect(linkset[0]?.anchor).toBe(`${base}/api/v1`);
    for (const entry of linkset)
      for (const [rel, links] of Object.entries(entry))
        if (rel !== "anchor") for (const { href } of links as { href: string }[]) expect(await statusOf(href), href).toBe(200);
  });
});
