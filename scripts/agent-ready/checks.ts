import { sha256Hex } from "../../src/store/ids.ts";
import { declaredTools } from "./webmcp.ts";

/**
 * The agent-readiness checks public scanners make (Cloudflare's "Is It Agent Ready?" and similar), run against any
 * base URL. Each check says what it looked at and why it passed or failed.
 */
export interface CheckResult {
  id: string;
  title: string;
  ok: boolean;
  detail: string;
}

type Check = { id: string; title: string; run: (base: string) => Promise<string> };

const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: "follow", signal: AbortSignal.timeout(10_000), ...init });

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function json(url: string): Promise<Record<string, unknown>> {
  const res = await get(url);
  const text = await res.text();
  assert(res.ok, `${url} answered ${res.status}`);
  assert(/json/.test(res.headers.get("content-type") ?? ""), `${url} is ${res.headers.get("content-type")}, not JSON`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** That a published URL answers a GET with 2xx (and, when given, the media type it promises). */
async function answers(url: string, type?: RegExp): Promise<void> {
  const res = await get(url);
  await res.arrayBuffer();
  assert(res.ok, `${url} answered ${res.status}`);
  if (type) assert(type.test(res.headers.get("content-type") ?? ""), `${url} is ${res.headers.get("content-type")}`);
}

/** An absolute http(s) URL on the checked site's own origin. */
const sameOrigin = (value: unknown, base: string): value is string => {
  try {
    return typeof value === "string" && new URL(value).origin === new URL(base).origin;
  } catch {
    return false;
  }
};

/** robots.txt's groups (RFC 9309): the user agents each names, and the names of its rules. */
function groupsOf(body: string): { agents: string[]; rules: string[] }[] {
  const groups: { agents: string[]; rules: string[] }[] = [];
  for (const line of body.split(/\r?\n/)) {
    const [, name, value] = /^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*(#.*)?$/.exec(line) ?? [];
    if (!name) continue;
    if (/^user-agent$/i.test(name)) {
      const last = groups.at(-1);
      if (last && last.rules.length === 0) last.agents.push(value!);
      else groups.push({ agents: [value!], rules: [] });
    } else groups.at(-1)?.rules.push(name);
  }
  return groups;
}

let robots: Promise<string> | undefined;
const robotsTxt = (base: string) =>
  (robots ??= (async () => {
    const res = await get(`${base}/robots.txt`);
    assert(res.status === 200, `/robots.txt answered ${res.status}`);
    assert((res.headers.get("content-type") ?? "").startsWith("text/plain"), `/robots.txt is ${res.headers.get("content-type")}`);
    return res.text();
  })());

/** The paths of the pages the sitemap lists, all read at the checked base (a preview's sitemap may name the live site). */
let sitemap: Promise<string[]> | undefined;
const sitemapPaths = (base: string) => (sitemap ??= readSitemapPaths(base));

async function readSitemapPaths(base: string): Promise<string[]> {
  const line = /^Sitemap:\s*(\S+)/im.exec(await robotsTxt(base))?.[1];
  const url = `${base}${line ? new URL(line, base).pathname : "/sitemap.xml"}`;
  const res = await get(url);
  const body = await res.text();
  assert(res.ok, `${url} answered ${res.status}`);
  assert(/<(urlset|sitemapindex)\b/.test(body), `${url} is not a sitemap`);
  return [...body.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => {
    const loc = new URL(m[1]!.replace(/&amp;/g, "&"));
    return `${loc.pathname}${loc.search}`;
  });
}

const aiCrawlers = [
  "GPTBot",
  "ClaudeBot",
  "Google-Extended",
  "PerplexityBot",
  "CCBot",
  "OAI-SearchBot",
  "Claude-User",
  "Applebot-Extended",
];

export const checks: Check[] = [
  {
    id: "robotsTxt",
    title: "robots.txt",
    run: async (base) => {
      const body = await robotsTxt(base);
      assert(/^User-agent:\s*\S+/im.test(body), "no User-agent group");
      return `${body.split("\n").filter((l) => /^User-agent:/i.test(l)).length} User-agent groups`;
    },
  },
  {
    id: "sitemap",
    title: "Sitemap",
    run: async (base) => {
      const paths = await sitemapPaths(base);
      const url = /^Sitemap:\s*(\S+)/im.exec(await robotsTxt(base))?.[1] ?? `${base}/sitemap.xml`;
      assert(paths.length > 0, `${url} lists no URL`);
      for (const path of paths) await answers(`${base}${path}`);
      return `${url}: ${paths.length} URLs, each answering`;
    },
  },
  {
    id: "linkHeaders",
    title: "Link headers on the home page",
    run: async (base) => {
      const res = await get(`${base}/`, { method: "HEAD" });
      await res.arrayBuffer();
      const link = res.headers.get("link") ?? "";
      const rels = [...link.matchAll(/rel="?([^";,]+)"?/g)].map((m) => m[1]!);
      const useful = rels.filter((r) =>
        ["api-catalog", "ai-catalog", "service-desc", "service-doc", "service-meta", "describedby", "alternate"].includes(r),
      );
      assert(useful.length > 0, "no Link header with an agent-useful relation");
      const targets = [...link.matchAll(/<([^>]+)>\s*;[^,]*rel="?([^";,]+)"?/g)].filter((m) => useful.includes(m[2]!));
      for (const [, target] of targets) await answers(new URL(target!, `${base}/`).href);
      return `rel: ${[...new Set(useful)].join(", ")}, each target answering`;
    },
  },
  {
    id: "markdownNegotiation",
    title: "Markdown for Accept: text/markdown",
    run: async (base) => {
      const res = await get(`${base}/`, { headers: { accept: "text/markdown" } });
      const body = await res.text();
      assert(res.status === 200, `answered ${res.status}`);
      assert(/^#{1,6} \S/m.test(body) && !/<html/i.test(body), "the body is not a Markdown document with a heading");
      assert((res.headers.get("content-type") ?? "").startsWith("text/markdown"), `content type ${res.headers.get("content-type")}`);
      assert(/accept/i.test(res.headers.get("vary") ?? ""), "no Vary: Accept");
      return `text/markdown, ${res.headers.get("x-markdown-tokens") ?? "?"} tokens`;
    },
  },
  {
    id: "robotsTxtAiRules",
    title: "AI crawler rules in robots.txt",
    run: async (base) => {
      const body = await robotsTxt(base);
      const named = aiCrawlers.filter((bot) => new RegExp(`^User-agent:\\s*${bot}\\s*$`, "im").test(body));
      assert(named.length > 0, "no group names an AI crawler");
      // Each named group says something: an Allow or Disallow rule of its own.
      for (const bot of named) {
        const group = groupsOf(body).find((g) => g.agents.some((a) => a.toLowerCase() === bot.toLowerCase()));
        assert(
          group?.rules.some((r) => /^(allow|disallow)$/i.test(r)),
          `the group of ${bot} has no Allow or Disallow rule`,
        );
      }
      return `names ${named.join(", ")}`;
    },
  },
  {
    id: "contentSignals",
    title: "Content Signals",
    run: async (base) => {
      const signal = /^Content-Signal:\s*(.+)$/im.exec(await robotsTxt(base))?.[1];
      assert(signal && /(search|ai-input|ai-train)=(yes|no)/.test(signal), "no Content-Signal line");
      return signal;
    },
  },
  {
    id: "webMcp",
    title: "WebMCP tool (a declarative form)",
    run: async (base) => {
      const paths = [...new Set(["/", ...(await sitemapPaths(base))])];
      const found: { path: string; tool: ReturnType<typeof declaredTools>[number] }[] = [];
      for (const path of paths) {
        const res = await get(`${base}${path}`, { headers: { accept: "text/html" } });
        const html = await res.text();
        if (res.ok && (res.headers.get("content-type") ?? "").startsWith("text/html"))
          found.push(...declaredTools(html).map((tool) => ({ path, tool })));
      }
      assert(found.length > 0, `none of the ${paths.length} pages of the sitemap has a <form> with toolname and tooldescription`);
      const problems = found.flatMap(({ path, tool }) => tool.problems.map((p) => `${path}: ${p}`));
      assert(problems.length === 0, problems.join("; "));
      const params = (tool: (typeof found)[number]["tool"]) => tool.parameters.map((p) => `${p.name}${p.required ? "*" : ""}`).join(", ");
      return found.map(({ path, tool }) => `${path}: ${tool.name} (${params(tool)})`).join("; ");
    },
  },
  {
    id: "apiCatalog",
    title: "API catalog (RFC 9727)",
    run: async (base) => {
      const res = await get(`${base}/.well-known/api-catalog`);
      const text = await res.text();
      assert(res.ok, `answered ${res.status}`);
      assert(
        (res.headers.get("content-type") ?? "").startsWith("application/linkset+json"),
        `content type ${res.headers.get("content-type")}`,
      );
      const { linkset } = JSON.parse(text) as { linkset?: ({ anchor: string } & Record<string, unknown>)[] };
      assert(Array.isArray(linkset) && linkset.length > 0, "empty linkset");
      for (const entry of linkset) {
        assert(sameOrigin(entry.anchor, base), `anchor ${String(entry.anchor)} is not a URL of ${base}`);
        const links = Object.values(entry).flatMap((v) => (Array.isArray(v) ? (v as { href?: unknown }[]) : []));
        assert(links.length > 0, `${entry.anchor}: no link`);
        for (const l of links) if (typeof l.href === "string") await answers(new URL(l.href, base).href);
      }
      return `${linkset.map((l) => l.anchor).join(", ")}, every link answering`;
    },
  },
  {
    id: "oauthDiscovery",
    title: "OAuth authorization server metadata",
    run: async (base) => {
      const doc = await json(`${base}/.well-known/oauth-authorization-server`);
      assert(doc.issuer === base, `issuer ${String(doc.issuer)} is not ${base}`);
      assert(Array.isArray(doc.code_challenge_methods_supported) && doc.code_challenge_methods_supported.includes("S256"), "no S256");
      for (const field of ["authorization_endpoint", "token_endpoint", "jwks_uri"])
        assert(sameOrigin(doc[field], base), `${field} ${String(doc[field])} is not a URL of ${base}`);
      const jwks = await json(doc.jwks_uri as string);
      assert(Array.isArray(jwks.keys) && jwks.keys.length > 0, `${String(doc.jwks_uri)} holds no key`);
      const keys = (jwks.keys as unknown[]).length;
      return `issuer ${String(doc.issuer)}, ${keys} signing key${keys === 1 ? "" : "s"}`;
    },
  },
  {
    id: "oauthProtectedResource",
    title: "OAuth protected resource metadata",
    run: async (base) => {
      const doc = await json(`${base}/.well-known/oauth-protected-resource`);
      assert(sameOrigin(doc.resource, base), `resource ${String(doc.resource)} is not a URL of ${base}`);
      assert(Array.isArray(doc.authorization_servers) && doc.authorization_servers.length > 0, "no authorization_servers");
      for (const issuer of doc.authorization_servers as unknown[]) {
        assert(typeof issuer === "string", "an authorization server that is not a URL");
        const metadata = await json(
          `${new URL(issuer).origin}/.well-known/oauth-authorization-server${new URL(issuer).pathname.replace(/\/$/, "")}`,
        );
        assert(metadata.issuer === issuer, `${issuer}: its metadata names issuer ${String(metadata.issuer)}`);
      }
      return `resource ${doc.resource as string}`;
    },
  },
  {
    id: "aiCatalog",
    title: "AI catalog",
    run: async (base) => {
      const res = await get(`${base}/.well-known/ai-catalog.json`);
      const text = await res.text();
      assert(res.ok, `answered ${res.status}`);
      assert(/json/.test(res.headers.get("content-type") ?? ""), `content type ${res.headers.get("content-type")}`);
      const catalog = JSON.parse(text) as {
        specVersion?: unknown;
        entries?: { identifier?: unknown; type?: unknown; url?: unknown; data?: unknown }[];
      };
      assert(
        typeof catalog.specVersion === "string" && /^\d+\.\d+$/.test(catalog.specVersion),
        `specVersion ${String(catalog.specVersion)}`,
      );
      assert(Array.isArray(catalog.entries) && catalog.entries.length > 0, "no entries");
      for (const e of catalog.entries) {
        assert(typeof e.identifier === "string" && typeof e.type === "string", "an entry without identifier or type");
        assert((e.url === undefined) !== (e.data === undefined), `${String(e.identifier)}: not exactly one of url and data`);
        if (typeof e.url === "string") await answers(new URL(e.url, base).href);
      }
      return catalog.entries.map((e) => e.type as string).join(", ");
    },
  },
  {
    id: "mcpServerCard",
    title: "MCP server card",
    run: async (base) => {
      const card = await json(`${base}/.well-known/mcp/server-card.json`);
      assert(typeof card.name === "string" && /^[^/]+\/[^/]+$/.test(card.name), `name ${String(card.name)} is not <namespace>/<name>`);
      assert(typeof card.version === "string" && card.version.length > 0, "no version");
      const remotes = (card.remotes ?? []) as { type?: unknown; url?: unknown }[];
      const remote = remotes.find((r) => r.type === "streamable-http");
      assert(remote && sameOrigin(remote.url, base), "no streamable-http remote on this site");
      // The endpoint is an MCP server: it answers a 2025-11-25 tools/list without a handshake, or refuses in JSON-RPC.
      const res = await get(remote.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      const answer = (await res.json().catch(() => ({}))) as { jsonrpc?: unknown };
      assert(answer.jsonrpc === "2.0", `${remote.url} does not answer JSON-RPC`);
      return `${card.name} at ${remote.url}`;
    },
  },
  {
    id: "a2aAgentCard",
    title: "A2A agent card",
    run: async (base) => {
      const card = await json(`${base}/.well-known/agent-card.json`);
      assert(typeof card.name === "string" && Array.isArray(card.skills) && card.skills.length > 0, "no name or no skills");
      const interfaces = (card.supportedInterfaces ?? []) as { url?: unknown; protocolBinding?: unknown; protocolVersion?: unknown }[];
      assert(interfaces.length > 0 && interfaces.every((i) => sameOrigin(i.url, base)), "no interface on this site");
      return `${card.name as string}, ${(card.skills as unknown[]).length} skills, ${interfaces.map((i) => `${String(i.protocolBinding)} ${String(i.protocolVersion)}`).join(", ")}`;
    },
  },
  {
    id: "agentSkills",
    title: "Agent skills index",
    run: async (base) => {
      const index = await json(`${base}/.well-known/agent-skills/index.json`);
      assert(typeof index.$schema === "string" && /0\.2\.0/.test(index.$schema), `$schema ${String(index.$schema)}`);
      const skills = index.skills as { name: string; url: string; digest: string }[];
      assert(Array.isArray(skills) && skills.length > 0, "no skills");
      for (const s of skills) {
        const res = await get(new URL(s.url, `${base}/.well-known/agent-skills/`).href);
        assert(res.ok, `${s.name}: ${s.url} answered ${res.status}`);
        assert(`sha256:${await sha256Hex(await res.text())}` === s.digest, `${s.name}: the file's SHA-256 is not the index's digest`);
      }
      return `${skills.map((s) => s.name).join(", ")}, each file matching its digest`;
    },
  },
];

/**
 * The checks of Cloudflare's "Is It Agent Ready?" scan (isitagentready.com, its published llms-full.txt) that do not
 * apply to a studio's site, each with the reason; every other check of that scan is one of `checks` above.
 */
export const notApplicable: { id: string; title: string; reason: string }[] = [
  {
    id: "webBotAuth",
    title: "Web Bot Auth",
    reason:
      "for operators of bots that sign their requests (a key directory at /.well-known/http-message-signatures-directory); this site runs no crawler or agent of its own",
  },
  { id: "x402", title: "x402 payments", reason: "nothing on this site is bought or paid for by an agent" },
  { id: "ucp", title: "Universal Commerce Protocol", reason: "nothing on this site is bought or paid for by an agent" },
  { id: "acp", title: "Agentic Commerce Protocol", reason: "nothing on this site is bought or paid for by an agent" },
  { id: "ap2", title: "Agent Payments Protocol", reason: "nothing on this site is bought or paid for by an agent" },
];

/** The checks of that scan, by its own ids: each either run here or named above as not applying. */
export const scannerCheckIds = [
  "robotsTxt",
  "sitemap",
  "linkHeaders",
  "markdownNegotiation",
  "robotsTxtAiRules",
  "contentSignals",
  "webBotAuth",
  "mcpServerCard",
  "a2aAgentCard",
  "agentSkills",
  "webMcp",
  "apiCatalog",
  "oauthDiscovery",
  "oauthProtectedResource",
  "x402",
  "ucp",
  "acp",
  "ap2",
];

/** The share of the checks that apply which passed, in percent. */
export const scoreOf = (results: CheckResult[]) =>
  results.length === 0 ? 0 : Math.round((100 * results.filter((r) => r.ok).length) / results.length);

export async function runChecks(base: string): Promise<CheckResult[]> {
  robots = undefined;
  sitemap = undefined;
  const origin = base.replace(/\/+$/, "");
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      results.push({ id: check.id, title: check.title, ok: true, detail: await check.run(origin) });
    } catch (error) {
      results.push({ id: check.id, title: check.title, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}
