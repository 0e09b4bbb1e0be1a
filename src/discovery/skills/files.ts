import { openApiDocument } from "../../api/openapi.ts";
import { renderGuide } from "../../guide/render.ts";
import { jsonBody } from "../../resources/json.ts";
import type { Site } from "../../site/model.ts";
import { skillFile, type SkillReference } from "./common.ts";
import { skills } from "./index.ts";

/**
 * Every file of every skill, by its path under /.well-known/agent-skills/ (`<name>/SKILL.md`, `<name>/references/…`),
 * SKILL.md first in each: the exact text the site serves there and /mcp serves as `skill://<name>/…`, so both publish
 * the same bytes, and the same digests.
 */
export function skillFiles(site: Site): Record<string, string> {
  const files: Record<string, string> = {};
  for (const skill of skills(site)) {
    files[`${skill.name}/SKILL.md`] = skillFile(skill);
    for (const reference of skill.references) files[`${skill.name}/${reference.path}`] = referenceText(site, reference);
  }
  return files;
}

/** A reference's text: the OpenAPI document as /api/v1/openapi.json serves it, or a section of the developer page's twin. */
function referenceText(site: Site, { source, url }: SkillReference): string {
  if ("openApi" in source) return jsonBody(openApiDocument(site));
  const section = renderGuide(site).find((s) => s.id === source.guideSection);
  if (!section) throw new Error(`The developer page has no section "${source.guideSection}" for a skill's reference.`);
  return `# ${section.title}\n\nThe section of ${site.company.name}'s developer page at ${url}.\n\n${section.markdown}\n`;
}
