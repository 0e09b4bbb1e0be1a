import { apiIndexSchema } from "../../src/resources/index.ts";
import { caseStudiesResourceSchema, caseStudyResourceSchema } from "../../src/resources/case-studies.ts";
import { companyResourceSchema } from "../../src/resources/company.ts";
import { contactResourceSchema } from "../../src/resources/contact.ts";
import { offersResourceSchema } from "../../src/resources/offers.ts";
import { pagesResourceSchema } from "../../src/resources/pages.ts";

/** Each prebuilt JSON resource (path under /api/v1) and the schema it must match exactly. */
export const resourceSchemas = {
  "": apiIndexSchema,
  "/company": companyResourceSchema,
  "/offers": offersResourceSchema,
  "/case-studies": caseStudiesResourceSchema,
  "/pages": pagesResourceSchema,
  "/contact": contactResourceSchema,
} as const;

export { caseStudyResourceSchema };
