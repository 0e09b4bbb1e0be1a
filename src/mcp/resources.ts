import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { resourceCatalog } from "../resources/catalog.ts";
import { absolute, caseStudyResourcePath, resourcePaths } from "../paths.ts";

/** An MCP resource: the prebuilt JSON of one REST resource, named by its https URL (a client may also GET it). */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: "application/json";
  value: object;
}

export function resourceDefinitions(prebuilt: PrebuiltResources): ResourceDefinition[] {
  const url = (path: string) => absolute(prebuilt.site.base_url, path);
  const resource = (name: string, path: string, title: string, description: string, value: object): ResourceDefinition => ({
    uri: url(path),
    name,
    title,
    description,
    mimeType: "application/json",
    value,
  });
  return [
    resource(
      "index",
      resourcePaths.index,
      "API index",
      "Index of every resource of the REST API, with the OpenAPI document.",
      prebuilt.index,
    ),
    resource("company", resourcePaths.company, "Company profile", resourceCatalog.company.description, prebuilt.company),
    resource("offers", resourcePaths.offers, "Offers and prices", resourceCatalog.offers.description, prebuilt.offers),
    resource(
      "case-studies",
      resourcePaths["case-studies"],
      "Case studies",
      resourceCatalog["case-studies"].description,
      prebuilt["case-studies"],
    ),
    ...Object.entries(prebuilt.case_study_details).map(([id, study]) =>
      resource(`case-study-${id}`, caseStudyResourcePath(id), study.title, `The case study "${study.title}" in full.`, study),
    ),
    resource("pages", resourcePaths.pages, "Site pages", resourceCatalog.pages.description, prebuilt.pages),
    resource("contact", resourcePaths.contact, "Contact details", resourceCatalog.contact.description, prebuilt.contact),
  ];
}
