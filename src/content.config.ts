import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { caseStudySchema } from "./schemas/case-study.ts";
import { companySchema } from "./schemas/company.ts";
import { contactSchema } from "./schemas/contact.ts";
import { guideSectionSchema } from "./schemas/guide-section.ts";
import { offerSchema } from "./schemas/offer.ts";
import { pageSchema } from "./schemas/page.ts";

const root = process.env.FRONTDOOR_CONTENT_DIR ?? "./content";

export const collections = {
  company: defineCollection({ loader: glob({ pattern: "company.yaml", base: root }), schema: companySchema }),
  contact: defineCollection({ loader: glob({ pattern: "contact.yaml", base: root }), schema: contactSchema }),
  offers: defineCollection({ loader: glob({ pattern: "*.yaml", base: `${root}/offers` }), schema: offerSchema }),
  caseStudies: defineCollection({ loader: glob({ pattern: "*.md", base: `${root}/case-studies` }), schema: caseStudySchema }),
  pages: defineCollection({ loader: glob({ pattern: "*.md", base: `${root}/pages` }), schema: pageSchema }),
  developerGuide: defineCollection({ loader: glob({ pattern: "*.md", base: `${root}/developers` }), schema: guideSectionSchema }),
};
