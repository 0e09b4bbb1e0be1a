import { z } from "zod";
import { briefSchema } from "../briefs/schema.ts";
import { catalogIds, resourceCatalog, type CatalogId } from "../resources/catalog.ts";
import { siteSizeIds, type PrebuiltResources } from "../resources/prebuilt.ts";

/**
 * The agent's skills: one per public read resource (answering with the very JSON of the REST read) and the brief.
 * The agent card, the executor, the request router and the developer page are all generated from this table.
 */
export const briefSkillId = "svc-project-brief";

export interface ReadSkill {
  id: CatalogId;
  name: string;
  tags: string[];
  /** Words in a text message that select this skill (keyword routing, lower case). */
  keywords: string[];
  examples: string[];
}

export const readSkills: ReadSkill[] = [
  {
    id: "company",
    name: "Company facts",
    tags: ["company", "services", "technology", "facts"],
    keywords: ["company", "about", "who", "services", "stack", "technology", "technologies", "team", "exclusions"],
    examples: ["What does the studio do, and what does it not take on?", '{"skill":"company"}'],
  },
  {
    id: "offers",
    name: "Offers and prices",
    tags: ["offers", "pricing", "care plan", "USD"],
    keywords: ["offer", "offers", "price", "prices", "pricing", "cost", "budget", "size", "sizes", "care", "plan", "packages"],
    examples: ["Which site sizes and care plan do you offer?", '{"skill":"offers"}'],
  },
  {
    id: "case-studies",
    name: "Case studies",
    tags: ["case studies", "portfolio", "results"],
    keywords: ["case", "cases", "study", "studies", "work", "portfolio", "results", "clients", "projects"],
    examples: [
      "Show me your case studies with measured results.",
      '{"skill":"case-studies"}',
      '{"skill":"case-studies","id":"<case study id>"}',
    ],
  },
  {
    id: "pages",
    name: "Site pages",
    tags: ["pages", "site map", "markdown"],
    keywords: ["page", "pages", "sitemap", "site map", "markdown", "urls"],
    examples: ["List the pages of the site.", '{"skill":"pages"}'],
  },
  {
    id: "contact",
    name: "Contact details",
    tags: ["contact", "e-mail", "intro call"],
    keywords: ["contact", "email", "e-mail", "call", "book", "booking", "reach", "phone", "form"],
    examples: ["How can I contact the studio or book an intro call?", '{"skill":"contact"}'],
  },
];

if (readSkills.map((s) => s.id).join() !== catalogIds.join()) throw new Error("every catalog resource needs exactly one A2A read skill");

export const readSkillDescription = (skill: ReadSkill) =>
  `${resourceCatalog[skill.id].description} Answers with a data part holding the same JSON as GET /api/v1/${skill.id}` +
  (skill.id === "case-studies" ? ' (with "id" in the data part: the full case study, as GET /api/v1/case-studies/{id})' : "") +
  ", and a short text part. No token needed.";

/** A schema's fields as a skill describes them (its input form): name, whether required, description. */
export function fieldsOf(schema: z.ZodType) {
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as {
    properties: Record<string, { description?: string }>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties).map(([name, p]) => ({ name, required: required.has(name), description: p.description ?? "" }));
}

/** The names of the required (or the optional) fields, as a list in words. */
export const fieldNames = (fields: ReturnType<typeof fieldsOf>, required: boolean) =>
  fields
    .filter((f) => f.required === required)
    .map((f) => f.name)
    .join(", ");

/** The brief's fields as the skill describes them, from the one brief schema. */
export const briefFields = (prebuilt: Pick<PrebuiltResources, "offers">) => fieldsOf(briefSchema(siteSizeIds(prebuilt)));

export function briefSkillDescription(prebuilt: Pick<PrebuiltResources, "offers">) {
  const fields = briefFields(prebuilt);
  return (
    "File a project brief: it creates a real lead, and a person at the studio answers by e-mail. Use it only when the person " +
    "you act for asked to be contacted and confirmed their name, company and e-mail. Send the brief as one data part with " +
    `the REST field names (as POST /api/v1/briefs): required ${fieldNames(fields, true)}; optional ${fieldNames(fields, false)}. ` +
    'With "dry_run": true it is authenticated and validated only. ' +
    'Name the skill in message.metadata.skillId or as "skill" in the data part. Needs an OAuth access token with the scope ' +
    "svc:brief. Missing or invalid fields put the task in input-required, naming each field; a filed brief completes the " +
    "task with the receipt (lead_id) as an artifact. GetTask and ListTasks (with the same token) find a client's own briefs later."
  );
}

export const briefExamples = [
  JSON.stringify({
    skill: briefSkillId,
    full_name: "Ada Lovelace",
    company_name: "Analytical Engines",
    work_email: "ada@engines.example",
    message: "A new marketing site before our launch in spring.",
    dry_run: true,
  }),
];

export const isReadSkillId = (id: unknown): id is CatalogId => typeof id === "string" && readSkills.some((s) => s.id === id);
