import type { z } from "zod";
import { caseStudiesResourceSchema } from "./case-studies.ts";
import { companyResourceSchema } from "./company.ts";
import { contactResourceSchema } from "./contact.ts";
import { offersResourceSchema } from "./offers.ts";
import { pagesResourceSchema } from "./pages.ts";

/** The read resources listed by the index: what each holds and the schema of its JSON. */
export const resourceCatalog = {
  company: { description: "What the company does, what it does not take on, and its technology stack.", schema: companyResourceSchema },
  offers: {
    description: "Marketing-site sizes (priced on an intro call) and the monthly care plan, in USD.",
    schema: offersResourceSchema,
  },
  "case-studies": {
    description: "Published case studies with measured results; each links to its full JSON.",
    schema: caseStudiesResourceSchema,
  },
  pages: { description: "Every indexable page of the site, with its Markdown twin.", schema: pagesResourceSchema },
  contact: { description: "E-mail, intro-call booking link and contact form.", schema: contactResourceSchema },
} as const satisfies Record<string, { description: string; schema: z.ZodType }>;

export type CatalogId = keyof typeof resourceCatalog;
export const catalogIds = Object.keys(resourceCatalog) as CatalogId[];
