import { problems, type ProblemCode } from "../../api/problems.ts";
import { table, text } from "../../markdown/syntax.ts";
import { guideUrl, type GuideSubject } from "../../paths.ts";
import type { Site } from "../../site/model.ts";

/** One skill (agentskills.io): a SKILL.md (frontmatter with name and description, then the recipe) and its supporting files. */
export interface Skill {
  name: string;
  description: string;
  body: string;
  references: SkillReference[];
}

/**
 * A supporting file of a skill: content the site publishes elsewhere (the OpenAPI document, a page of the developer
 * guide), for an agent that loaded the skill and needs the details. Its text is made where the files are written
 * (files.ts): the developer guide lists the skills, so a skill cannot render it.
 */
export interface SkillReference {
  /** Its path in the skill's folder: `references/<file>`. */
  path: string;
  /** What it holds, as SKILL.md names it. */
  title: string;
  /** Where the site publishes the same content. */
  url: string;
  /** What it repeats: the OpenAPI document, or the sections of this page of the developer guide. */
  source: { openApi: true } | { guidePage: GuideSubject };
}

/** A lowercase, hyphenated name prefix from the studio's name: "Kestrel Studio" -> "kestrel-studio". */
export const skillPrefix = (site: Site) =>
  site.company.name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "studio";

export const skillFile = (skill: Skill) =>
  `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\nlicense: CC-BY-4.0\n---\n\n${skill.body.trim()}\n${referencesSection(skill)}`;

/** SKILL.md's last section: each supporting file by its relative path, and where the site publishes the same. */
const referencesSection = ({ references }: Skill) =>
  references.length === 0
    ? ""
    : `\n## Reference files\n\nIn this skill's folder, to read when you need the details:\n\n${references
        .map((r) => `- [${r.path}](${r.path}): ${r.title} (the same as ${r.url}).`)
        .join("\n")}\n`;

/** A page of the developer guide, as a skill's reference file. */
export const guideReference = (site: Site, page: GuideSubject, title: string): SkillReference => ({
  path: "references/developer-guide.md",
  title,
  url: guideUrl(site.baseUrl, page),
  source: { guidePage: page },
});

export const confirmationRule =
  "File a brief only when the person you act for asked to be contacted and confirmed their name, company and work e-mail. A brief creates a real lead: a person at the studio answers it by e-mail. Send it first with dry_run: true to check it, show the person what will be sent, then send it for real.";

/** Every problem code with what to do, for the recipes. */
export const problemTable = (codes: ProblemCode[] = Object.keys(problems) as ProblemCode[]) =>
  table(
    ["code", "status", "what to do"],
    codes.map((c) => [`\`${c}\``, String(problems[c].status), text(problems[c].resolution)]),
  );
