import type { Twin } from "../markdown/twins.ts";
import { link, text } from "../markdown/syntax.ts";

import { guidePageResourceId, indexablePages } from "../resources/pages.ts";
import type { Site } from "../site/model.ts";
import {
  a2aPath,
  a2aRestPath,
  agentCardPath,
  openApiPath,
  mcpPath,
  serverCardPath,
  aiCatalogPath,
  oauthPaths,
  skillsIndexPath,
  absolute,
  resourcePaths,
  llmsFullPath,
  guideSubjects,
} from "../paths.ts";

/** /llms.txt (llmstxt.org): what the site is, and where its Markdown and machine interfaces are. */
export function llmsTxt(site: Site): string {
  const url = (path: string) => absolute(site.baseUrl, path);
  const pages = indexablePages(site);
  const guide = new Set(guideSubjects.map(guidePageResourceId));
  const entry = (label: string, href: string, note?: string) => `- ${link(label, href)}${note ? `: ${text(note)}` : ""}`;
  return [
    `# ${text(site.company.name)}`,
    "",
    `> ${text(site.company.tagline)} ${text(site.company.summary)}`,
    "",
    text(
      `Every page below is Markdown. The same facts are JSON at ${url(resourcePaths.index)}; reads need no key. A project brief becomes a real lead that a person answers by e-mail: file one only when the person you act for asked to be contacted and confirmed their name, company and e-mail.`,
    ),
    ...(site.company.sample_content
      ? ["", text(`Sample content: ${site.company.name} is a fictional studio used to demonstrate this site.`)]
      : []),
    "",
    "## Pages",
    "",
    ...pages.filter((p) => p.kind === "page" && !guide.has(p.id)).map((p) => entry(p.title, p.markdown_url, p.description)),
    "",
    "## Case studies",
    "",
    ...pages.filter((p) => p.kind === "case_study").map((p) => entry(p.title, p.markdown_url, p.description)),
    "",
    "## API",
    "",
    entry("API index", url(resourcePaths.index), "every resource, with absolute URLs"),
    entry("OpenAPI 3.1 description", url(openApiPath)),
    "",
    "## Developer guide",
    "",
    ...pages.filter((p) => guide.has(p.id)).map((p) => entry(p.title, p.markdown_url, p.description)),
    "",
    "## Agents",
    "",
    entry("AI catalog", url(aiCatalogPath), "the MCP server card, the A2A agent card and the agent skills, each with its type"),
    entry("MCP server", url(mcpPath), `Streamable HTTP; server card at ${url(serverCardPath)}`),
    entry("A2A agent", url(a2aPath), `JSON-RPC, A2A 1.0 and 0.3; HTTP+JSON at ${url(a2aRestPath)}; agent card at ${url(agentCardPath)}`),
    entry("Agent skills", url(skillsIndexPath), "one SKILL.md per protocol: REST, MCP, A2A"),
    entry("OAuth authorization server", url(oauthPaths.authorizationServerMetadata), "self-serve tokens for filing briefs"),
    "",
    "## Optional",
    "",
    entry("The whole site as one Markdown file", url(llmsFullPath)),
    "",
  ].join("\n");
}

/** /llms-full.txt: every page's Markdown twin, one after the other, each introduced by its URL. */
export function llmsFullTxt(site: Site, twins: Twin[]): string {
  return twins
    .filter((t) => t.path !== "/404")
    .map((t) => `<!-- ${absolute(site.baseUrl, t.path)} -->\n\n${t.markdown}`)
    .join("\n---\n\n");
}
