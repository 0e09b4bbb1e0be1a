import { z } from "zod";
import type { Site } from "../site/model.ts";
import { caseStudiesResource, caseStudyResource } from "./case-studies.ts";
import { companyResource } from "./company.ts";
import { contactResource } from "./contact.ts";
import { apiIndex } from "./index.ts";
import { offersResource } from "./offers.ts";
import { pagesResource } from "./pages.ts";

/**
 * Every read resource in one document, written by the build for the functions (MCP, A2A, briefs) to bundle, so they
 * serve the very same JSON as the REST reads. It is not an API resource: the /api gateway answers 404 for its path.
 */
export function prebuiltResources(site: Site) {
  return {
    index: apiIndex(site),
    company: companyResource(site),
    offers: offersResource(site),
    "case-studies": caseStudiesResource(site),
    case_study_details: Object.fromEntries(site.caseStudies.map((s) => [s.id, caseStudyResource(site, s)])),
    pages: pagesResource(site),
    contact: contactResource(site),
    /** What the functions need beyond the resources. */
    site: {
      name: site.company.name,
      base_url: site.baseUrl,
      response_time: site.contact.response_time,
      contact_confirmation: site.contact.form.confirmation,
      sample_content: site.company.sample_content,
    },
  };
}

export type PrebuiltResources = ReturnType<typeof prebuiltResources>;

/** The file's path under dist/, and the build that writes it. */

export const siteSizeIds = (prebuilt: Pick<PrebuiltResources, "offers">) => {
  const ids = prebuilt.offers.site_sizes.map((s) => s.id);
  return z.tuple([z.string()], z.string()).parse(ids) as [string, ...string[]];
};
