import { describe, expect, it } from "vitest";
import { serverCard } from "../../src/mcp/card.ts";
import { serverInfo } from "../../src/mcp/server.ts";
import { legacyProtocolVersions, modernProtocolVersions } from "../../src/mcp/versions.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";

const content = await loadContentDir("content");
const site = buildSite(content, "https://www.kestrel.example:8443");
const prebuilt = prebuiltResources(site);
const card = serverCard(prebuilt);

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
