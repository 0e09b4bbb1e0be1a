import type { Deprecation } from "../api/deprecations.ts";
import type { Site } from "../site/model.ts";
import { a2aErrorsTable, a2aRestErrorsTable, a2aSkillsTable } from "./a2a-tables.ts";
import { codeBlock, sentenceBlock, tableBlock, type Block } from "./block.ts";
import { aiCatalogTable } from "./discovery-tables.ts";
import { mcpErrorsTable, mcpPromptsTable, mcpResourcesTable, mcpSkillsTable, mcpToolsTable } from "./mcp-tables.ts";
import {
  a2aBriefSample,
  authorizationCodeSample,
  briefSample,
  invalidBriefSample,
  mcpDiscoverSample,
  mcpInitializeSample,
  quotaHeadersSample,
} from "./samples.ts";
import {
  bookingFieldsTable,
  bookingReceiptTable,
  briefFieldsTable,
  freeTimesQueryTable,
  freeTimesTable,
  caseStudyExtraFieldsTable,
  deprecationsTable,
  endpointsTable,
  fieldErrorTable,
  nothingDeprecated,
  oauthErrorsTable,
  oauthScopesTable,
  problemsTable,
  quotasTable,
  resourceFieldsBlock,
  resourcesTable,
} from "./tables.ts";

/**
 * The generated parts of the guide, by kind and name: `{{table:quotas}}` on a line of its own in content/developers/
 * is the quota table. Each one calls a named generator, so a table's source can change without touching the prose.
 * Built on first use: a name the prose does not use costs nothing.
 */
export function guideBlocks(site: Site, deprecations: readonly Deprecation[]): Record<string, Record<string, () => Block>> {
  return {
    table: {
      resources: () => tableBlock(resourcesTable(site)),
      "oauth-scopes": () => tableBlock(oauthScopesTable()),
      "oauth-errors": () => tableBlock(oauthErrorsTable()),
      problems: () => tableBlock(problemsTable()),
      quotas: () => tableBlock(quotasTable()),
      deprecations: () => {
        const table = deprecationsTable(deprecations);
        return table ? tableBlock(table) : sentenceBlock(nothingDeprecated);
      },
      endpoints: () => tableBlock(endpointsTable(site, deprecations)),
      "mcp-tools": () => tableBlock(mcpToolsTable(site)),
      "mcp-resources": () => tableBlock(mcpResourcesTable(site)),
      "mcp-prompts": () => tableBlock(mcpPromptsTable(site)),
      "mcp-skills": () => tableBlock(mcpSkillsTable(site)),
      "mcp-errors": () => tableBlock(mcpErrorsTable()),
      "a2a-skills": () => tableBlock(a2aSkillsTable(site)),
      "a2a-errors": () => tableBlock(a2aErrorsTable()),
      "a2a-rest-errors": () => tableBlock(a2aRestErrorsTable()),
      "ai-catalog": () => tableBlock(aiCatalogTable(site)),
    },
    fields: {
      brief: () => tableBlock(briefFieldsTable(site)),
      "field-error": () => tableBlock(fieldErrorTable()),
      "free-times-query": () => tableBlock(freeTimesQueryTable()),
      "free-times": () => tableBlock(freeTimesTable()),
      booking: () => tableBlock(bookingFieldsTable()),
      "booking-receipt": () => tableBlock(bookingReceiptTable()),
      resources: () => resourceFieldsBlock(site),
      "case-study": () => tableBlock(caseStudyExtraFieldsTable()),
    },
    sample: {
      brief: () => codeBlock("sh", briefSample(site)),
      "invalid-brief": () => codeBlock("json", invalidBriefSample()),
      "quota-headers": () => codeBlock("http", quotaHeadersSample()),
      "authorization-code": () => codeBlock("sh", authorizationCodeSample(site)),
      "mcp-discover": () => codeBlock("sh", mcpDiscoverSample(site)),
      "mcp-initialize": () => codeBlock("sh", mcpInitializeSample(site)),
      "a2a-brief": () => codeBlock("sh", a2aBriefSample(site)),
    },
  };
}
