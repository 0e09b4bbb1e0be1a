import { problems, type ProblemCode } from "../../api/problems.ts";
import { table, text } from "../../markdown/syntax.ts";
import type { Site } from "../../site/model.ts";

/** One SKILL.md (agentskills.io): frontmatter with name and description, then the recipe. */
export interface Skill {
  name: string;
  description: string;
  body: string;
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
  `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\nlicense: CC-BY-4.0\n---\n\n${skill.body.trim()}\n`;

export const confirmationRule =
  "File a brief only when the person you act for asked to be contacted and confirmed their name, company and work e-mail. A brief creates a real lead: a person at the studio answers it by e-mail. Send it first with dry_run: true to check it, show the person what will be sent, then send it for real.";

/** Every problem code with what to do, for the recipes. */
export const problemTable = (codes: ProblemCode[] = Object.keys(problems) as ProblemCode[]) =>
  table(
    ["code", "status", "what to do"],
    codes.map((c) => [`\`${c}\``, String(problems[c].status), text(problems[c].resolution)]),
  );
