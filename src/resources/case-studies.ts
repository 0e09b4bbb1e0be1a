import { z } from "zod";

import type { Site, SiteCaseStudy } from "../site/model.ts";
import { isoDate, isoDateSchema, pageLinks, pageLinksSchema } from "./common.ts";
import { absolute, caseStudyPath, caseStudyResourcePath, pagePaths } from "../paths.ts";

const resultSchema = z.object({
  metric: z.string().describe("What was measured."),
  before: z.number().describe("The figure before the project."),
  after: z.number().describe("The figure after the project."),
  unit: z.string().describe("Unit of before and after, such as s, KB or %."),
  better: z.enum(["lower", "higher"]).describe("Which direction is an improvement."),
  change: z
    .object({
      absolute: z.number().describe("after - before, in the unit."),
      percent: z.number().nullable().describe("Relative change in percent, one decimal; null when before is 0."),
    })
    .describe("The change from before to after."),
  period: z.string().describe("The periods compared."),
  method: z.string().describe("How the figures were measured."),
});

export const caseStudySummarySchema = z.object({
  id: z.string().describe("Stable id, also the last segment of its URLs."),
  title: z.string().describe("Headline of the case study."),
  summary: z.string().describe("One sentence."),
  client: z
    .object({
      name: z.string().describe("Client name."),
      industry: z.string().describe("Client industry."),
      location: z.string().describe("Where the client is."),
    })
    .describe("Who the project was for."),
  published: isoDateSchema.describe("When the case study was published."),
  launched: isoDateSchema.describe("When the project launched."),
  offer_id: z.string().describe("The id of the site size in the offers resource."),
  service_ids: z.array(z.string()).describe("Ids of services in the company resource."),
  stack: z.array(z.string()).describe("Technologies used."),
  timeline_weeks: z.number().int().describe("Kick-off to launch, in weeks."),
  problem: z.string().describe("The problem the client had."),
  built: z.array(z.string()).describe("What was built."),
  results: z.array(resultSchema).describe("Measured results."),
  url: z.url().describe("This case study as a JSON resource, with its story."),
  links: pageLinksSchema,
});

export const caseStudyResourceSchema = caseStudySummarySchema
  .extend({ story: z.string().describe("The full story, as Markdown.") })
  .describe("One case study in full.");

export const caseStudiesResourceSchema = z
  .object({ case_studies: z.array(caseStudySummarySchema).describe("Published case studies, newest first."), links: pageLinksSchema })
  .describe("Published case studies with measured results, newest first.");

const round1 = (n: number) => Math.round(n * 10) / 10;

function summary(site: Site, study: SiteCaseStudy): z.infer<typeof caseStudySummarySchema> {
  return {
    id: study.id,
    title: study.title,
    summary: study.summary,
    client: study.client,
    published: isoDate(study.published),
    launched: isoDate(study.launched),
    offer_id: study.offer,
    service_ids: study.services,
    stack: study.stack,
    timeline_weeks: study.timeline_weeks,
    problem: study.problem,
    built: study.built,
    results: study.results.map((r) => ({
      ...r,
      change: {
        absolute: round1(r.after - r.before),
        percent: r.before === 0 ? null : round1(((r.after - r.before) / r.before) * 100),
      },
    })),
    url: absolute(site.baseUrl, caseStudyResourcePath(study.id)),
    links: pageLinks(site.baseUrl, caseStudyPath(study.id)),
  };
}

export const caseStudiesResource = (site: Site) => ({
  case_studies: site.caseStudies.map((s) => summary(site, s)),
  links: pageLinks(site.baseUrl, pagePaths.work),
});

export const caseStudyResource = (site: Site, study: SiteCaseStudy) => ({ ...summary(site, study), story: study.story });
