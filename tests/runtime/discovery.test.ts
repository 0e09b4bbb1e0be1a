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

  it("llms.txt links every page's Markdown twin, each of which answers, and the AI catalog", async () => {
    const body = await (await get("/llms.txt")).text();
    expect(body).toContain(`](${base}/.well-known/ai-catalog.json)`);
    expect(body).toMatch(/^# \S/);
    const { pages } = (await (await get("/api/v1/pages")).json()) as { pages: IndexablePage[] };
    for (const page of pages) expect(body).toContain(`](${page.markdown_url})`);
    const full = await (await get("/llms-full.txt")).text();
    for (const page of pages) expect(full).toContain(`<!-- ${page.url} -->`);
  });
});

describe("links to the machine interfaces", () => {
  it("every HTML page's Link header names its twin, the API and AI catalogs, the OpenAPI document and the docs", async () => {
    const res = await get("/");
    const link = res.headers.get("link") ?? "";
    for (const part of [
      '</index.md>; rel="alternate"; type="text/markdown"',
      '</.well-known/api-catalog>; rel="api-catalog"',
      '</.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json"',
      '</api/v1/openapi.json>; rel="service-desc"',
      '</developers>; rel="service-doc"',
      '</llms.txt>; rel="describedby"',
    ])
      expect(link).toContain(part);
    const html = await res.text();
    expect(html).toContain('<link rel="api-catalog" href="/.well-known/api-catalog"');
    expect(html).toContain('<link rel="ai-catalog" href="/.well-known/ai-catalog.json" type="application/ai-catalog+json">');
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
const catalogUrl = `${base}/.well-known/ai-catalog.json`;
// What each entry's document is served as: the server card with its entry type; the agent card and the skills index as
// application/json, which the A2A and Agent Skills Discovery specifications give them.
const servedAs: Record<string, string> = {
  "application/mcp-server-card+json": "application/mcp-server-card+json",
  "application/a2a-agent-card+json": "application/json",
  "application/agent-skills+json": "application/json",
};

describe("the AI catalog", () => {
  it("is served with its media type, CORS and revalidation, and linked from the index and the API catalog", async () => {
    const res = await fetch(catalogUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/ai-catalog+json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await res.json()) as Json).specVersion).toBe("1.0");
    const again = await fetch(catalogUrl, { headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);

    const index = (await (await get("/api/v1")).json()) as Json;
    expect(index.discovery.ai_catalog_url).toBe(catalogUrl);
    const { linkset } = (await (await get("/.well-known/api-catalog")).json()) as { linkset: Json[] };
    for (const anchor of [index.mcp.url, index.a2a.url])
      expect(linkset.find((e) => e.anchor === anchor)!["ai-catalog"]).toEqual([
        { href: catalogUrl, type: "application/ai-catalog+json", title: "AI catalog" },
      ]);
  });

  it("lists the MCP server card, the A2A agent card and the skills index, each answering as its type says", async () => {
    const catalog = (await (await fetch(catalogUrl)).json()) as Json;
    const host = new URL(base).hostname;
    expect(catalog.host).toMatchObject({ displayName: expect.any(String), identifier: host });
    expect(catalog.entries.map((e: Json) => e.type)).toEqual(Object.keys(servedAs));
    const documents: Record<string, Json> = {};
    for (const entry of catalog.entries as Json[]) {
      expect(entry.identifier).toMatch(new RegExp(`^urn:air:${host}:[a-z0-9]+:[a-z0-9-]+$`));
      const res = await fetch(entry.url, { headers: { Accept: `${entry.type}, application/json;q=0.5` } });
      expect(res.status, entry.url).toBe(200);
      expect(res.headers.get("content-type")?.split(";")[0], entry.url).toBe(servedAs[entry.type]);
      expect(res.headers.get("access-control-allow-origin"), entry.url).toBe("*");
      documents[entry.type] = (await res.json()) as Json;
    }
    const card = documents["application/mcp-server-card+json"]!;
    const agentCard = documents["application/a2a-agent-card+json"]!;
    const skills = documents["application/agent-skills+json"]!;
    expect(agentCard.supportedInterfaces[0].url).toBe(`${base}/a2a/v1`);
    expect(skills.$schema).toMatch(/agentskills\.io\/discovery\//);
    for (const skill of skills.skills as Json[]) expect(await statusOf(new URL(skill.url, base).href), skill.url).toBe(200);

    // The card's endpoint is the MCP server, and says what the card says about itself.
    const remote = card.remotes[0] as Json;
    expect(remote).toMatchObject({ type: "streamable-http", url: `${base}/mcp` });
    for (const version of (remote.supportedProtocolVersions as string[]).filter((v) => v < "2026-07-28")) {
      const res = await fetch(remote.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": version },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "discovery-test", version: "1.0.0" } },
        }),
      });
      const { result } = (await res.json()) as Json;
      expect(result.protocolVersion).toBe(version);
      expect(card.name.split("/")[1]).toBe(result.serverInfo.name);
      expect({ version: card.version, title: card.title, websiteUrl: card.websiteUrl }).toEqual({
        version: result.serverInfo.version,
        title: result.serverInfo.title,
        websiteUrl: result.serverInfo.websiteUrl,
      });
    }
  });
});

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
