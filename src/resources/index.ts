import { z } from "zod";
import { absolute, pagePaths, resourcePaths, type ResourceId } from "../site/routes.ts";
import type { Site } from "../site/model.ts";
import { sampleContentSchema } from "./common.ts";

export const resourceDescriptions: Record<Exclude<ResourceId, "index">, string> = {
  company: "What the company does, what it does not take on, and its technology stack.",
  offers: "Marketing-site sizes (priced on an intro call) and the monthly care plan, in USD.",
  "case-studies": "Published case studies with measured results; each links to its full JSON.",
  pages: "Every indexable page of the site, with its Markdown twin.",
  contact: "E-mail, intro-call booking link and contact form.",
};

export const apiIndexSchema = z
  .object({
    name: z.string(),
    version: z.literal("v1"),
    description: z.string(),
    sample_content: sampleContentSchema,
    resources: z.array(
      z.object({ id: z.string(), url: z.url(), methods: z.array(z.string()), description: z.string() }),
    ),
    documentation_url: z.url(),
  })
  .describe("Index of every resource of the API.");

export function apiIndex(site: Site): z.infer<typeof apiIndexSchema> {
  return {
    name: `${site.company.name} public API`,
    version: "v1",
    description: `Public facts about ${site.company.name}. Reads need no key and no account.`,
    sample_content: site.company.sample_content,
    resources: (Object.keys(resourceDescriptions) as (keyof typeof resourceDescriptions)[]).map((id) => ({
      id,
      url: absolute(site.baseUrl, resourcePaths[id]),
      methods: ["GET"],
      description: resourceDescriptions[id],
    })),
    documentation_url: absolute(site.baseUrl, pagePaths.developers),
  };
}
