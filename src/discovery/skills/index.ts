import { skillPath } from "../../paths.ts";
import { sha256Hex } from "../../store/ids.ts";
import type { Site } from "../../site/model.ts";
import { skillFile, type Skill } from "./common.ts";
import { a2aSkill } from "./a2a.ts";
import { mcpSkill } from "./mcp.ts";
import { restSkill } from "./rest.ts";

export const skillsSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/** One SKILL.md per protocol. */
export const skills = (site: Site): Skill[] => [restSkill(site), mcpSkill(site), a2aSkill(site)];

/** One skill of the index, as agents read it. */
export interface SkillsIndexEntry {
  name: string;
  type: "skill-md";
  description: string;
  url: string;
  digest: string;
}

/**
 * The Agent Skills Discovery index (v0.2.0); each digest is over the exact bytes of the SKILL.md the build writes. Each
 * entry is a `skill-md`: its SKILL.md works alone, naming each reference file by its path and by the URL where the site
 * publishes the same content (docs/decisions.md, "Skills over MCP").
 */
export async function skillsIndex(site: Site): Promise<{ $schema: string; skills: SkillsIndexEntry[] }> {
  return {
    $schema: skillsSchema,
    skills: await Promise.all(
      skills(site).map(async (skill) => ({
        name: skill.name,
        type: "skill-md" as const,
        description: skill.description,
        url: skillPath(skill.name),
        digest: `sha256:${await sha256Hex(skillFile(skill))}`,
      })),
    ),
  };
}
