import { z } from "zod";

import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema, sampleContentSchema } from "./common.ts";
import { pagePaths } from "../paths.ts";

export const companyResourceSchema = z
  .object({
    name: z.string().describe("Trading name."),
    legal_name: z.string().describe("Registered company name."),
    tagline: z.string().describe("One sentence on what the company does."),
    summary: z.string().describe("A short paragraph about the company."),
    founded: z.number().int().describe("Year the company was founded."),
    team_size: z.number().int().describe("Number of people."),
    location: z
      .object({
        city: z.string().describe("City."),
        region: z.string().describe("State, province or region."),
        country: z.string().describe("ISO 3166-1 alpha-2 code."),
      })
      .describe("Where the company is based."),
    languages: z.array(z.string()).describe("ISO 639-1 codes of the languages the company works in."),
    services: z
      .array(
        z.object({
          id: z.string().describe("Stable id."),
          name: z.string().describe("Name of the service."),
          summary: z.string().describe("What the service covers."),
        }),
      )
      .describe("What the company does."),
    not_taken_on: z
      .array(
        z.object({
          id: z.string().describe("Stable id."),
          name: z.string().describe("Kind of work."),
          reason: z.string().describe("Why the company does not take it on."),
        }),
      )
      .describe("Work the company does not take on, and why."),
    stack: z
      .array(
        z.object({
          name: z.string().describe("Technology."),
          category: z.string().describe("Group, such as Frameworks or Hosting."),
          used_for: z.string().describe("What the company uses it for."),
        }),
      )
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
