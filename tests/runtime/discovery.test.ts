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

type Json = Record<string, any>;

describe("the MCP server card", () => {
  it("is served at <mcp url>/server-card with CORS, cache headers and a strong ETag, and the same at the well-known path", async () => {
    const res = await get("/mcp/server-card");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const card = (await res.json()) as Json;
    expect((await fetch(`${base}/mcp/server-card`, { headers: { "If-None-Match": etag } })).status).toBe(304);

    const wellKnown = await get("/.well-known/mcp/server-card.json");
    expect(wellKnown.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(wellKnown.headers.get("access-control-allow-origin")).toBe("*");
    expect(await wellKnown.json()).toEqual(card);
    const revalidated = await fetch(`${base}/.well-known/mcp/server-card.json`, {
      headers: { "If-None-Match": wellKnown.headers.get("etag")! },
    });
    expect(revalidated.status).toBe(304);
  });

  it("holds identity and how to connect, not what the server lists at run time", async () => {
    const card = (await (await get("/mcp/server-card")).json()) as Json;
    expect(card.$schema).toBe("https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json");
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(Object.keys(card).filter((k) => ["tools", "resources", "prompts", "capabilities", "serverInfo"].includes(k))).toEqual([]);
    expect(card.remotes[0].supportedProtocolVersions.slice(0, 2)).toEqual(["2026-07-28", "2025-11-25"]);
  });
});
