import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { checks, notApplicable, scannerCheckIds } from "../../scripts/agent-ready/checks.ts";

/**
 * From the base URL alone, through npm start (the whole site, pages and functions, as a scanner meets it): the scanners'
 * checks all pass (run once, by `npm run check:agent-ready`), every URL every discovery document names answers with the
 * right content type, and the documents agree on endpoints, scopes, skills, tools and versions.
 */
const base = inject("baseUrl");
const run = promisify(execFile);
// Discovery documents are read as plain JSON; the assertions are the schema.
type Json = Record<string, any>;
/** Each URL's answer, fetched once for both tests of the documents. */
const answers = new Map<string, Promise<{ status: number; type: string; text: string }>>();
const answer = (url: string) => {
  if (!answers.has(url))
    answers.set(
      url,
      fetch(url).then(async (res) => ({ status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() })),
    );
  return answers.get(url)!;
};
const json = async (url: string): Promise<Json> => JSON.parse((await answer(url)).text) as Json;
/** What the MCP server itself lists: a 2025-11-25 request, which a stateless server answers without a handshake. */
const mcpToolNames = async (url: string): Promise<string[]> => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  return ((await res.json()) as Json).result.tools.map((t: Json) => t.name);
};

describe("agent readiness (npm run check:agent-ready)", () => {
  it("passes every check public scanners make, prints the ones that do not apply with their reason, and scores 100%", async () => {
    const script = fileURLToPath(new URL("../../scripts/check-agent-ready.ts", import.meta.url));
    const { stdout } = await run(process.execPath, [script, base]);
    const lines = stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("FAIL"))).toEqual([]);
    expect(lines.filter((line) => line.startsWith("PASS  "))).toHaveLength(checks.length);
    expect(checks.length).toBeGreaterThanOrEqual(13);
    expect(stdout).toMatch(/^N\/A {3}Web Bot Auth/m);
    expect(stdout).toMatch(/^score 100%: (\d+) of the \1 checks that apply passed, 0 failed/m);
    // Every check of Cloudflare's scan is run here, or named with the reason it does not apply to this site.
    expect([...checks.map((c) => c.id), ...notApplicable.map((n) => n.id)].sort()).toEqual(
      expect.arrayContaining([...scannerCheckIds].sort()),
    );
    // The contact form is the site's one WebMCP tool, found through the sitemap.
    const webMcp = checks.find((c) => c.id === "webMcp")!;
    expect(stdout).toContain(`PASS  ${webMcp.title.padEnd(40)} /contact: send_project_brief (full_name*, `);
  });
});

describe("the discovery documents", () => {
  it("name only URLs that answer, with the content type they promise", async () => {
    const index = await json(`${base}/api/v1`);
    const catalog = await json(`${base}/.well-known/api-catalog`);
    const skills = await json(`${base}/.well-known/agent-skills/index.json`);
    const expectations: [string, RegExp][] = [
      [index.openapi_url, /openapi\+json/],
      [index.documentation_url, /text\/html/],
      [index.mcp.server_card_url, /^application\/mcp-server-card\+json$/],
      [index.a2a.agent_card_url, /application\/json/],
      [index.discovery.api_catalog_url, /linkset\+json/],
      [index.discovery.ai_catalog_url, /^application\/ai-catalog\+json$/],
      [index.discovery.agent_skills_url, /application\/json/],
      [index.discovery.oauth_authorization_server_url, /application\/json/],
      [index.discovery.jwks_url, /application\/json/],
      [index.discovery.llms_txt_url, /text\/plain/],
      ...index.discovery.oauth_protected_resource_urls.map((u: string): [string, RegExp] => [u, /application\/json/]),
      ...index.resources
        .filter((r: { methods: string[] }) => r.methods.includes("GET"))
        .map((r: { url: string }): [string, RegExp] => [r.url, /application\/json/]),
      ...catalog.linkset.flatMap((entry: Json) =>
        Object.entries(entry)
          .filter(([rel]) => rel !== "anchor")
          .flatMap(([, links]) =>
            (links as { href: string; type: string }[]).map((l): [string, RegExp] => [
              l.href,
              new RegExp(l.type.split(";")[0]!.replace("+", "\\+")),
            ]),
          ),
      ),
      ...skills.skills.map((s: { url: string }): [string, RegExp] => [new URL(s.url, base).href, /text\/markdown/]),
    ];
    for (const [url, type] of expectations) {
      const { status, type: served } = await answer(url);
      expect(status, url).toBe(200);
      expect(served, url).toMatch(type);
    }
  });

  it("agree on endpoints, scopes, skills, tools and versions", async () => {
    const index = await json(`${base}/api/v1`);
    const as = await json(index.discovery.oauth_authorization_server_url);
    const [origin, mcp, a2a] = await Promise.all(index.discovery.oauth_protected_resource_urls.map(json));
    const openapi = await json(index.openapi_url);
    const serverCard = await json(index.mcp.server_card_url);
    const agentCard = await json(index.a2a.agent_card_url);
    const skills = await json(index.discovery.agent_skills_url);
    const tools = await mcpToolNames(index.mcp.url);
    const aiCatalog = await json(index.discovery.ai_catalog_url);

    // One issuer, one set of scopes, everywhere.
    expect(as.issuer).toBe(base);
    const scopes = ["svc:read", "svc:brief"];
    expect(as.scopes_supported).toEqual(scopes);
    expect([origin.resource, mcp.resource, a2a.resource]).toEqual([base, index.mcp.url, index.a2a.url]);
    for (const prm of [origin, mcp, a2a]) {
      expect(prm.authorization_servers).toEqual([as.issuer]);
      expect(prm.scopes_supported).toEqual(scopes);
    }
    expect(Object.keys(openapi.components.securitySchemes.oauth2.flows.clientCredentials.scopes)).toEqual(scopes);
    expect(openapi.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(as.token_endpoint);
    expect(openapi.components.securitySchemes.oauth2.flows.authorizationCode.authorizationUrl).toBe(as.authorization_endpoint);
    for (const scheme of Object.values(agentCard.securitySchemes) as Json[]) {
      const flows = scheme.oauth2SecurityScheme.flows;
      const flow = flows.clientCredentials ?? flows.authorizationCode;
      expect(flow.tokenUrl).toBe(as.token_endpoint);
      expect(Object.keys(flow.scopes)).toEqual(scopes);
    }

    // The same endpoints and versions.
    expect(openapi.servers[0].url).toBe(base);
    expect(serverCard.remotes[0].url).toBe(index.mcp.url);
    const cardAuth = Object.entries(serverCard._meta as Json).find(([key]) => key.endsWith("/authorization"))![1];
    expect(cardAuth.protected_resource_metadata).toBe(index.discovery.oauth_protected_resource_urls[1]);
    expect(serverCard.remotes[0].supportedProtocolVersions).toContain("2025-11-25");
    expect(agentCard.supportedInterfaces).toEqual([
      ...index.a2a.protocol_versions.map((v: string) => ({ url: index.a2a.url, protocolBinding: "JSONRPC", protocolVersion: v })),
      { url: index.a2a.rest_url, protocolBinding: "HTTP+JSON", protocolVersion: index.a2a.protocol_versions[0] },
    ]);

    // The AI catalog lists the cards and the skills the index names.
    expect(aiCatalog.entries.map((e: Json) => e.url)).toEqual([
      index.mcp.server_card_url,
      index.a2a.agent_card_url,
      index.discovery.agent_skills_url,
    ]);

    // The brief is offered the same way on every surface.
    expect(Object.keys(openapi.paths)).toContain("/api/v1/briefs");
    expect(tools).toContain("submit_project_brief");
    expect(agentCard.skills.map((s: Json) => s.id)).toContain("svc-project-brief");

    // One skill per protocol, each pointing at its own surface.
    const bodies = await Promise.all(
      skills.skills.map(async (s: Json) => [s.name, (await answer(new URL(s.url, base).href)).text] as const),
    );
    const body = (suffix: string) => bodies.find(([name]) => name.endsWith(suffix))![1];
    expect(body("-rest-api")).toContain(index.openapi_url);
    expect(body("-mcp")).toContain(index.mcp.url);
    for (const tool of tools) expect(body("-mcp")).toContain(`\`${tool}\``);
    expect(body("-a2a")).toContain(index.a2a.url);
    for (const skill of agentCard.skills.map((s: Json) => s.id)) expect(body("-a2a")).toContain(`\`${skill}\``);
  });
});
