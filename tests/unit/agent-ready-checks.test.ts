import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChecks, scoreOf } from "../../scripts/agent-ready/checks.ts";
import { serveWeb, type WebServer } from "../../scripts/lib/serve-web.ts";

/**
 * The scanners' checklist against a hollow site: every document present, each holding next to nothing (empty lists,
 * endpoints that are not URLs, a skill whose file is missing, a crawler group with no rule, an empty Markdown answer).
 * A check that only looks for a field's presence would pass it; these must not. tests/runtime/agent-ready.test.ts
 * holds that the real site scores 100%.
 */
let site: WebServer;
const json = (value: unknown, type = "application/json") => new Response(JSON.stringify(value), { headers: { "content-type": type } });

beforeAll(async () => {
  site = await serveWeb((request) => {
    const { pathname } = new URL(request.url);
    const base = new URL(request.url).origin;
    const documents: Record<string, () => Response> = {
      "/robots.txt": () =>
        new Response(`User-agent: GPTBot\nContent-Signal: search=yes\n\nSitemap: ${base}/sitemap.xml\n`, {
          headers: { "content-type": "text/plain" },
        }),
      "/sitemap.xml": () => new Response("<urlset></urlset>", { headers: { "content-type": "application/xml" } }),
      "/.well-known/api-catalog": () => json({ linkset: [{ anchor: "nothing" }] }, "application/linkset+json"),
      "/.well-known/oauth-authorization-server": () =>
        json({ issuer: base, code_challenge_methods_supported: ["S256"], authorization_endpoint: "x", token_endpoint: "y", jwks_uri: "z" }),
      "/.well-known/oauth-protected-resource": () => json({ resource: "x", authorization_servers: ["y"] }),
      "/.well-known/ai-catalog.json": () => json({ specVersion: "1.0", entries: [] }),
      "/.well-known/mcp/server-card.json": () => json({ name: "x" }),
      "/.well-known/agent-card.json": () => json({ name: "x", skills: [] }),
      "/.well-known/agent-skills/index.json": () =>
        json({
          $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
          skills: [{ name: "x", type: "skill-md", url: "/missing/SKILL.md", digest: `sha256:${"0".repeat(64)}` }],
        }),
      "/": () =>
        request.headers.get("accept") === "text/markdown"
          ? new Response("", { headers: { "content-type": "text/markdown", vary: "Accept" } })
          : new Response(
              '<html><body><form toolname="x" tooldescription="y"><input name="a" toolparamdescription="b"><button>Go</button></form></body></html>',
              {
                headers: { "content-type": "text/html", link: '</fr>; rel="alternate"; hreflang="fr"' },
              },
            ),
    };
    return documents[pathname]?.() ?? new Response("not found", { status: 404 });
  });
});
afterAll(() => site.close());

describe("the agent-readiness checks", () => {
  it("fail a site whose documents are there but hollow", async () => {
    const results = await runChecks(site.url);
    const failed = results.filter((r) => !r.ok).map((r) => r.id);
    expect(failed).toEqual(
      expect.arrayContaining([
        "sitemap",
        "linkHeaders",
        "markdownNegotiation",
        "robotsTxtAiRules",
        "apiCatalog",
        "oauthDiscovery",
        "oauthProtectedResource",
        "aiCatalog",
        "mcpServerCard",
        "a2aAgentCard",
        "agentSkills",
      ]),
    );
    expect(scoreOf(results)).toBeLessThan(40);
  });
});
