import { z } from "zod";
import { caseStudiesResourceSchema, caseStudyResourceSchema } from "../resources/case-studies.ts";
import { companyResourceSchema } from "../resources/company.ts";
import { contactResourceSchema } from "../resources/contact.ts";
import { offersResourceSchema } from "../resources/offers.ts";
import { pagesResourceSchema } from "../resources/pages.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { jsonSchemaOf } from "./json-schema.ts";
import { structuredResult, toolError, type Tool } from "./tool.ts";

const noArguments = { type: "object" as const, properties: {}, additionalProperties: false };
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const unexpected = (args: Record<string, unknown>, allowed: string[]) => Object.keys(args).filter((k) => !allowed.includes(k));

/** A tool that answers one prebuilt resource, the very JSON GET /api/v1/<id> serves. */
function resourceTool(name: string, title: string, description: string, schema: z.ZodType, value: object, summary: string): Tool {
  return {
    name,
    title,
    description: `${description} Read-only; needs no token. The same JSON as the REST resource.`,
    inputSchema: noArguments,
    outputSchema: jsonSchemaOf(schema, "output"),
    annotations: { title, ...readOnly },
    run: async (args) => {
      const extra = unexpected(args, []);
      if (extra.length > 0) return toolError(`${name} takes no arguments; remove ${extra.join(", ")}.`);
      return structuredResult(summary, value);
    },
  };
}

/**
 * get_case_study's input, with its id mirrored into the `Mcp-Param-Case-Study` header (SEP-2243, `x-mcp-header`): a
 * 2026-07-28 client sends it, so a gateway or a log sees which case study is read without parsing the body, and the SDK
 * refuses a header that disagrees with the body (-32020).
 */
function caseStudyInputSchema(input: z.ZodType) {
  const schema = jsonSchemaOf(input, "input");
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  return { ...schema, properties: { ...properties, id: { ...properties.id, "x-mcp-header": caseStudyHeader } } };
}

/** The name after `Mcp-Param-` (an RFC 9110 token). */
export const caseStudyHeader = "Case-Study";

/** One read tool per public resource, plus one case study in full by id. */
export function readTools(prebuilt: PrebuiltResources): Tool[] {
  const studio = prebuilt.site.name;
  const ids = Object.keys(prebuilt.case_study_details);
  const caseStudyInput = z
    .strictObject({
      id: (ids.length > 0 ? z.enum(ids as [string, ...string[]]) : z.string()).describe(
        "The case study's id, as list_case_studies gives it.",
      ),
    })
    .describe("Which case study to return.");
  return [
    resourceTool(
      "get_company",
      "Company profile",
      `What ${studio} does, the services it offers, what it does not take on, and its technology stack.`,
      companyResourceSchema,
      prebuilt.company,
      `Company profile of ${studio}:`,
    ),
    resourceTool(
      "get_offers",
      "Offers and prices",
      `${studio}'s marketing-site sizes (priced on an intro call, with typical ranges) and the monthly care plan, in USD.`,
      offersResourceSchema,
      prebuilt.offers,
      `Offers of ${studio} (amounts in USD):`,
    ),
    resourceTool(
      "list_case_studies",
      "Case studies",
      `Every published case study of ${studio} with its measured results. Use get_case_study with an id for the full story.`,
      caseStudiesResourceSchema,
      prebuilt["case-studies"],
      `Published case studies of ${studio}:`,
    ),
    {
      name: "get_case_study",
      title: "One case study in full",
      description: `One case study of ${studio} in full, story included, by its id (list_case_studies lists the ids). Read-only; needs no token. The same JSON as GET /api/v1/case-studies/{id}.`,
      inputSchema: caseStudyInputSchema(caseStudyInput),
      outputSchema: jsonSchemaOf(caseStudyResourceSchema, "output"),
      annotations: { title: "One case study in full", ...readOnly },
      run: async (args) => {
        const id = args.id;
        const extra = unexpected(args, ["id"]);
        if (extra.length > 0) return toolError(`get_case_study takes only id; remove ${extra.join(", ")}.`);
        const study =
          typeof id === "string" && Object.hasOwn(prebuilt.case_study_details, id) ? prebuilt.case_study_details[id] : undefined;
        if (!study) return toolError(`No case study has the id ${JSON.stringify(id ?? null)}. Published ids: ${ids.join(", ")}.`);
        return structuredResult(`Case study "${study.title}":`, study);
      },
    },
    resourceTool(
      "list_pages",
      "Site pages",
      `Every indexable page of ${studio}'s site, with the URL of its Markdown twin.`,
      pagesResourceSchema,
      prebuilt.pages,
      `Pages of ${studio}'s site:`,
    ),
    resourceTool(
      "get_contact",
      "Contact details",
      `How to reach ${studio}: e-mail, the intro-call booking link, the contact form and the response time.`,
      contactResourceSchema,
      prebuilt.contact,
      `Contact details of ${studio}:`,
    ),
  ];
}
