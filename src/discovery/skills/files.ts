import { openApiDocument } from "../../api/openapi.ts";
import { guidePages } from "../../guide/render.ts";
import { heading } from "../../markdown/syntax.ts";
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

/** A reference's text: the OpenAPI document as /api/v1/openapi.json serves it, or a guide page's sections as its twin has them. */
function referenceText(site: Site, { source, url }: SkillReference): string {
  if ("openApi" in source) return jsonBody(openApiDocument(site));
  const page = guidePages(site).find((p) => p.id === source.guidePage)!;
  const sections = page.sections.flatMap((s) => [heading(2, s.title), s.markdown]).join("\n\n");
  return `${heading(1, page.page.title)}\n\nA page of ${site.company.name}'s developer guide, at ${url}.\n\n${sections}\n`;
}
