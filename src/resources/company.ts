import { z } from "zod";
import { pagePaths } from "../site/routes.ts";
import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema, sampleContentSchema } from "./common.ts";

export const companyResourceSchema = z
  .object({
    name: z.string(),
    legal_name: z.string(),
    tagline: z.string(),
    summary: z.string(),
    founded: z.number().int().describe("Year the company was founded."),
    team_size: z.number().int(),
    location: z.object({ city: z.string(), region: z.string(), country: z.string().describe("ISO 3166-1 alpha-2.") }),
    languages: z.array(z.string()).describe("ISO 639-1 codes of the languages the company works in."),
    services: z
      .array(z.object({ id: z.string(), name: z.string(), summary: z.string() }))
      .describe("What the company does."),
    not_taken_on: z
      .array(z.object({ id: z.string(), name: z.string(), reason: z.string() }))
      .describe("Work the company does not take on, and why."),
    stack: z
      .array(z.object({ name: z.string(), category: z.string(), used_for: z.string() }))
      .describe("The technology the company builds with."),
    sample_content: sampleContentSchema,
    links: pageLinksSchema,
  })
  .describe("What the company does, what it does not take on, and its technology stack.");

export type CompanyResource = z.infer<typeof companyResourceSchema>;

export function companyResource(site: Site): CompanyResource {
  const { sample_content, ...company } = site.company;
  return { ...company, sample_content, links: pageLinks(site.baseUrl, pagePaths.services) };
}
