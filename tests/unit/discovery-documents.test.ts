import { describe, expect, it } from "vitest";
import { aiCatalog, aiCatalogEntryTypes } from "../../src/discovery/ai-catalog.ts";
import { pageLinks } from "../../src/discovery/api-catalog.ts";
import { llmsTxt } from "../../src/discovery/llms.ts";
import { serverCard } from "../../src/mcp/card.ts";
import { serverInfo } from "../../src/mcp/server.ts";
import { legacyProtocolVersions, modernProtocolVersions } from "../../src/mcp/versions.ts";
import { apiIndex } from "../../src/resources/index.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";

const content = await loadContentDir("content");
const site = buildSite(content, "https://www.kestrel.example:8443");
const prebuilt = prebuiltResources(site);
const card = serverCard(prebuilt);
const catalog = aiCatalog(site);

describe("the MCP server card", () => {
  it("is a SEP-2127 v1 card: its required fields within their bounds, no member the schema does not define", () => {
    expect(card.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/v1\/server-card\.schema\.json$/);
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.name.length).toBeLessThanOrEqual(200);
    expect(card.version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const text of [card.title, card.description]) expect(text).toMatch(/^.{1,100}$/su);
    // Identity and connection only: tools, resources and prompts are listed by the server at run time.
    const v1Members = ["$schema", "name", "version", "description", "title", "websiteUrl", "repository", "icons", "remotes", "_meta"];
    expect(Object.keys(card).filter((key) => !v1Members.includes(key))).toEqual([]);
    for (const remote of card.remotes) {
      expect(remote.type).toBe("streamable-http");
      expect(remote.url).toMatch(/^https?:\/\/[^\s]+$/);
      for (const header of remote.headers) expect(header).toMatchObject({ name: expect.any(String), isRequired: false });
    }
    // _meta keys: labels, a slash, a name; a prefix with an `mcp` or `modelcontextprotocol` label before another is MCP's.
    for (const key of Object.keys(card._meta)) {
      expect(key).toMatch(
        /^([a-zA-Z]([a-zA-Z0-9-]*[a-zA-Z0-9])?\.)*[a-zA-Z]([a-zA-Z0-9-]*[a-zA-Z0-9])?\/[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$/,
      );
      expect(key).not.toMatch(/(^|\.)(mcp|modelcontextprotocol)\.[^/]+\//);
    }
  });

  it("names the server as its serverInfo does, under the reversed host, and the revisions it is given", () => {
    const info = serverInfo(prebuilt);
    expect(card.name).toBe(`example.kestrel.www/${info.name}`);
    expect({ version: card.version, title: card.title, websiteUrl: card.websiteUrl }).toEqual({
      version: info.version,
      title: info.title,
      websiteUrl: info.websiteUrl,
    });
    expect(card.remotes).toMatchObject([{ url: "https://www.kestrel.example:8443/mcp" }]);
    expect(card.remotes[0]!.supportedProtocolVersions).toEqual([...modernProtocolVersions, ...legacyProtocolVersions]);
    expect(card.remotes[0]!.supportedProtocolVersions.slice(0, 2)).toEqual(["2026-07-28", "2025-11-25"]);
    expect(card._meta["example.kestrel.www/authorization"]).toEqual({
      required: false,
      protected_resource_metadata: "https://www.kestrel.example:8443/.well-known/oauth-protected-resource/mcp",
      scopes: { submit_project_brief: ["svc:brief"] },
    });
  });
});

describe("the AI catalog", () => {
  it("is an AI Catalog 1.0 document: a host, and entries with an identifier, a type and exactly one of url and data", () => {
    expect(catalog.specVersion).toBe("1.0");
    expect(catalog.host).toEqual({
      displayName: site.company.name,
      identifier: "www.kestrel.example",
      documentationUrl: "https://www.kestrel.example:8443/developers#discovery",
    });
    const identifiers = catalog.entries.map((e) => e.identifier);
    expect(new Set(identifiers).size).toBe(identifiers.length);
    for (const entry of catalog.entries) {
      expect(entry.identifier).toMatch(/^urn:air:www\.kestrel\.example:[a-z0-9]+:[a-z0-9-]+$/);
      expect(["url", "data"].filter((member) => member in entry)).toEqual(["url"]);
    }
  });

  it("lists the MCP server card, the A2A agent card and the skills index by their known types; only the index is named", () => {
    expect(catalog.entries.map(({ type, url }) => ({ type, url }))).toEqual([
      { type: "application/mcp-server-card+json", url: "https://www.kestrel.example:8443/mcp/server-card" },
      { type: "application/a2a-agent-card+json", url: "https://www.kestrel.example:8443/.well-known/agent-card.json" },
      { type: "application/agent-skills+json", url: "https://www.kestrel.example:8443/.well-known/agent-skills/index.json" },
    ]);
    const [mcp, a2a, skills] = catalog.entries;
    expect(mcp!.identifier).toBe(`urn:air:www.kestrel.example:mcp:${serverInfo(prebuilt).name}`);
    for (const entry of [mcp!, a2a!]) expect(Object.keys(entry).sort()).toEqual(["identifier", "type", "url"]);
    expect(skills).toMatchObject({ type: aiCatalogEntryTypes.agentSkills, displayName: expect.stringContaining(site.company.name) });
  });

  it("is linked from every page, the API index and llms.txt", () => {
    expect(pageLinks("/index.md")).toContainEqual({
      rel: "ai-catalog",
      href: "/.well-known/ai-catalog.json",
      type: "application/ai-catalog+json",
    });
    expect(apiIndex(site).discovery.ai_catalog_url).toBe("https://www.kestrel.example:8443/.well-known/ai-catalog.json");
    expect(llmsTxt(site)).toContain("](https://www.kestrel.example:8443/.well-known/ai-catalog.json)");
  });
});
