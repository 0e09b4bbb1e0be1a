import { resourceCatalog } from "../../src/resources/catalog.ts";
import { apiIndexSchema } from "../../src/resources/index.ts";

/** Each prebuilt JSON resource (path under /api/v1) and the schema it must match exactly. */
export const resourceSchemas = {
  "": apiIndexSchema,
  ...Object.fromEntries(Object.entries(resourceCatalog).map(([id, { schema }]) => [`/${id}`, schema])),
};

export { caseStudyResourceSchema } from "../../src/resources/case-studies.ts";
