import type { Deprecation } from "../api/deprecations.ts";
import type { Site } from "../site/model.ts";
import { developerGuide } from "../site/developers.ts";
import type { FieldDoc } from "../site/schema-fields.ts";
import { opening } from "./common.ts";
import { bullets, document, heading, link, table, text } from "./syntax.ts";

const code = (s: string) => `\`${s}\``;
const fieldTable = (fields: FieldDoc[]) =>
  table(
    ["Field", "Type", "Meaning"],
    fields.map((f) => [code(f.path), text(f.type), text(f.description)]),
  );
const block = (lang: string, s: string) => `\`\`\`${lang}\n${s}\n\`\`\``;

export function developersMarkdown(site: Site, deprecations?: readonly Deprecation[]): string {
  const guide = developerGuide(site, deprecations);
  const title = (id: string) => guide.sections.find((s) => s.id === id)!.title;
  return document(
    ...opening(site, site.pages.developers),
    heading(2, title("reading")),
    `Every resource is JSON over HTTPS GET, with no key and no account. Start at the index, which links to every resource: ${link(guide.indexUrl, guide.indexUrl)}.`,
    block("sh", guide.readExample),
    heading(2, title("resources")),
    table(
      ["Resource", "URL", "What it holds"],
      guide.resources.map((r) => [code(r.id), link(r.url, r.url), text(r.description)]),
    ),
    "Fields are snake_case, dates are ISO 8601 (`YYYY-MM-DD`), amounts are whole US dollars with their currency, and every URL is absolute. Ids are stable: they are the content file names.",
    heading(2, title("markdown")),
    `Every page of the site is also published as Markdown. Ask for it with \`Accept: text/markdown\`, or add \`.md\` to the page URL (${link(guide.markdownIndexUrl, guide.markdownIndexUrl)} for the home page).`,
    block("sh", guide.markdownExample),
    heading(2, title("oauth")),
    text(guide.oauth.intro),
    text(guide.oauth.discovery),
    heading(3, "Register a client"),
    text(guide.oauth.register),
    block("sh", guide.oauth.registerExample),
    heading(3, "Client credentials"),
    text(guide.oauth.clientCredentials),
    block("sh", guide.oauth.clientCredentialsExample),
    heading(3, "Authorization code with PKCE"),
    text(guide.oauth.authorizationCode),
    block("sh", guide.oauth.authorizationCodeExample),
    heading(3, "Scopes"),
    table(
      ["Scope", "What it allows"],
      guide.oauth.scopes.map(([name, meaning]) => [code(name), text(meaning)]),
    ),
    heading(3, "Tokens"),
    text(guide.oauth.tokens),
    heading(3, "Verifying tokens and key rotation"),
    text(guide.oauth.verifying),
    heading(3, "OAuth limits"),
    text(guide.oauth.limits),
    heading(3, "OAuth errors"),
    text(guide.oauth.errors),
    heading(2, title("briefs")),
    text(guide.briefs.intro),
    block("sh", guide.briefs.example),
    fieldTable(guide.briefs.fields),
    bullets(guide.briefs.rules.map(text)),
    heading(3, "When a brief is invalid"),
    "`invalid_brief` (422) names every offending field at once in `errors`; fix them all and send the brief again.",
    fieldTable(guide.briefs.errorFields),
    block("json", guide.briefs.errorExample),
    heading(2, title("mcp")),
    text(guide.mcp.intro),
    text(guide.mcp.transport),
    block("sh", guide.mcp.initializeExample),
    heading(3, "Tools"),
    table(
      ["Tool", "Needs", "What it does"],
      guide.mcp.tools.map((t) => [code(t.name), text(t.access), text(t.description)]),
    ),
    heading(3, "Resources"),
    table(
      ["URI", "What it holds"],
      guide.mcp.resources.map((r) => [code(r.uri), text(r.description)]),
    ),
    heading(3, "Prompts"),
    table(
      ["Prompt", "Arguments", "What it does"],
      guide.mcp.prompts.map((p) => [code(p.name), text(p.arguments), text(p.description)]),
    ),
    heading(3, "Authentication"),
    text(guide.mcp.auth),
    text(guide.mcp.filing),
    heading(3, "Limits"),
    text(guide.mcp.limits),
    heading(3, "Server card"),
    text(guide.mcp.card),
    heading(3, "MCP errors"),
    text(guide.mcp.errorsIntro),
    table(
      ["data.code", "HTTP", "JSON-RPC code", "Meaning"],
      guide.mcp.errors.map((e) => [code(e.code), String(e.status), String(e.rpc), text(e.meaning)]),
    ),
    heading(2, title("a2a")),
    text(guide.a2a.intro),
    heading(3, "Methods"),
    table(
      ["A2A 1.0", "A2A 0.3", "What it does"],
      guide.a2a.methods.map(([v1, v03, what]) => [code(v1), v03 === "—" ? v03 : code(v03), text(what)]),
    ),
    heading(3, "Skills"),
    table(
      ["Skill", "Name", "What it does", "Token"],
      guide.a2a.skills.map((s) => [code(s.id), text(s.name), text(s.description), s.auth === "none" ? "none" : code(s.auth)]),
    ),
    heading(3, "Choosing a skill"),
    bullets(guide.a2a.choosing.map(text)),
    heading(3, "Filing a brief"),
    text(guide.a2a.brief),
    block("sh", guide.a2a.briefExample),
    heading(3, "Authentication"),
    text(guide.a2a.auth),
    heading(3, "Limits and errors"),
    text(guide.a2a.limits),
    table(
      ["JSON-RPC code", "Meaning"],
      guide.a2a.errors.map(([c, name]) => [code(c), code(name)]),
    ),
    heading(2, title("errors")),
    "Every error under `/api` is an RFC 9457 `application/problem+json` document with these fields:",
    table(
      ["Field", "Meaning"],
      guide.problemFields.map(([f, m]) => [code(f), text(m)]),
    ),
    table(
      ["Code", "Status", "When", "What to do"],
      guide.problems.map((p) => [code(p.code), String(p.status), text(p.condition), text(p.resolution)]),
    ),
    heading(2, title("quota")),
    "Every response under `/api`, `/mcp`, `/a2a/v1` and `/oauth` that was counted, errors included, reports the quota it counts against:",
    table(
      ["Policy", "Quota", "Window", "Applies to", "Counted per"],
      guide.quotas.map((q) => [code(q.name), String(q.quota), `${q.windowSeconds} s`, text(q.appliesTo), text(q.partition)]),
    ),
    block("http", guide.quotaExample),
    "The 121st request in a window is refused with `rate_limited` (429) and a `Retry-After` header in seconds. The client address is the one the platform saw the connection come from, never a request header.",
    heading(2, title("versioning")),
    bullets(guide.versioning.map(text)),
    guide.deprecations.length === 0
      ? "Nothing under `/api/v1` is deprecated."
      : table(
          ["Operation", "Deprecated", "Sunset", "Successor"],
          guide.deprecations.map((d) => [code(d.operation), d.deprecated, d.sunset, d.successor ? link(d.successor, d.successor) : ""]),
        ),
    heading(2, title("reference")),
    `The complete description is the OpenAPI 3.1 document at ${link(guide.openApiUrl, guide.openApiUrl)}.`,
    table(
      ["Method", "Path", "What it does", "Responses"],
      guide.endpoints.map((e) => [code(e.method), code(e.path), text(`${e.summary}${e.deprecated ? " (deprecated)" : ""}`), e.responses]),
    ),
    heading(2, title("fields")),
    ...[{ id: "index", url: guide.indexUrl, fields: guide.indexFields }, ...guide.resources].flatMap((r) => [
      heading(3, r.id),
      link(r.url, r.url),
      fieldTable(r.fields),
    ]),
    `Each case study is also published in full at ${code(guide.caseStudyUrl)}, with every field of its list entry and:`,
    fieldTable(guide.caseStudyExtraFields),
  );
}
