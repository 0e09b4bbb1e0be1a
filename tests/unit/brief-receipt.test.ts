import { readFile } from "node:fs/promises";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/api/openapi.ts";
import type { Lead } from "../../src/briefs/lead.ts";
import { newLeadId } from "../../src/briefs/lead.ts";
import type { FilingResult } from "../../src/briefs/pipeline.ts";
import { briefSchema } from "../../src/briefs/schema.ts";
import { briefTool } from "../../src/mcp/brief-tool.ts";
import type { ToolCall } from "../../src/mcp/tool.ts";
import { offersResource } from "../../src/resources/offers.ts";
import { siteSizeIds } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { validateBrief } from "../support/briefs.ts";
import { loadContentDir } from "../support/content.ts";

/**
 * The receipt, the dry-run result and the field errors are described by schemas generated from the zod schemas the
 * code renders with: what a door actually answers must validate against what the OpenAPI document and the MCP tool
 * publish.
 */
const site = buildSite(await loadContentDir("content"), "https://studio.example");
const schema = briefSchema(siteSizeIds({ offers: offersResource(site) }));
const components = openApiDocument(site).components.schemas as Record<string, Record<string, unknown>>;
const validator = new AjvJsonSchemaValidator();
const check = (jsonSchema: Record<string, unknown>, value: unknown) => validator.getValidator(jsonSchema)(value);

const body = { full_name: " Ada  Lovelace ", company_name: "Analytical", work_email: "ada@EXAMPLE.com", page_count: 12 };
const { dry_run: _, ...brief } = schema.parse(body);
const lead = { id: newLeadId(), received_at: new Date().toISOString(), brief } as Lead;

/** What the pipeline answers each kind of filing with; a dry run never reaches it. */
const outcomes: [string, FilingResult | "dry_run"][] = [
  ["filed", { kind: "filed", lead }],
  ["replayed", { kind: "already_filed", lead, reason: "idempotency_key" }],
  ["repeat", { kind: "already_filed", lead, reason: "repeat" }],
  ["dry run", "dry_run"],
];

const tool = (result: FilingResult | "dry_run") =>
  briefTool({
    schema,
    file: async () => {
      if (result === "dry_run") throw new Error("a dry run files nothing");
      return result;
    },
    filedUnder: async () => null,
    checkKey: async () => undefined,
    studio: "Kestrel Studio",
    responseTime: "A person replies within one business day.",
  });
const call: ToolCall = {
  caller: { clientId: "client-1", grantId: "ga_0123456789abcdefghijkl", address: "198.51.100.7", scopes: ["svc:read", "svc:brief"] },
  era: "modern",
  clientCapabilities: undefined,
};

describe("the receipt as the MCP tool answers it", () => {
  it.each(outcomes)("%s: the structured result validates against the tool's published output schema", async (_, result) => {
    const t = tool(result);
    const answer = (await t.run(result === "dry_run" ? { ...body, dry_run: true } : body, call)) as CallToolResult;
    expect(answer.isError).toBeUndefined();
    expect(check(t.outputSchema, answer.structuredContent)).toMatchObject({ valid: true });
    const component = result === "dry_run" ? components.DryRunResult! : components.BriefReceipt!;
    expect(check(component, answer.structuredContent)).toMatchObject({ valid: true });
  });

  it("is one object type with the receipt's and the dry run's fields and descriptions, brief required", () => {
    const output = tool(outcomes[0]![1]).outputSchema as {
      type: string;
      properties: Record<string, { description?: string }>;
      required: string[];
    };
    const receipt = components.BriefReceipt!.properties as Record<string, { description?: string }>;
    const dryRun = components.DryRunResult!.properties as Record<string, { description?: string }>;
    expect(output.type).toBe("object");
    expect(Object.keys(output.properties).sort()).toEqual([...new Set([...Object.keys(receipt), ...Object.keys(dryRun)])].sort());
    expect(output.required).toEqual(["brief"]);
    expect(output.properties.status!.description).toBe(receipt.status!.description);
    expect(output.properties.message!.description).toBe(dryRun.message!.description);
    expect(check(output, { lead_id: "not-a-lead", brief: lead.brief })).toMatchObject({ valid: false });
  });
});

describe("the OpenAPI write schemas", () => {
  it("describe the field errors the validation returns", () => {
    const invalid = validateBrief(schema, { full_name: "", work_email: "nope", colour: "red" });
    expect(invalid.ok).toBe(false);
    if (invalid.ok) return;
    for (const error of invalid.errors) expect(check(components.FieldError!, error), JSON.stringify(error)).toMatchObject({ valid: true });
  });

  it("refuse a receipt the code would never render", () => {
    expect(
      check(components.BriefReceipt!, { lead_id: lead.id, status: "filed", received_at: lead.received_at, next_steps: "", brief: {} }),
    ).toMatchObject({
      valid: false,
    });
  });

  it("interpolate every limit: no number typed as prose in the OpenAPI modules", async () => {
    const prose =
      /\d[\d,]*[ -](?:KB|MB|bytes?|seconds?|minutes?|hours?|days?|briefs|requests|registrations|documents|characters)\b|\b(?:one|an)[ -]hour\b/;
    for (const file of ["openapi.ts", "openapi-writes.ts"]) {
      const source = await readFile(new URL(`../../src/api/${file}`, import.meta.url), "utf8");
      expect(prose.exec(source)?.[0], file).toBeUndefined();
    }
  });
});
