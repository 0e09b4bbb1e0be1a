import type { Deprecation } from "../api/deprecations.ts";
import { openApiDocument } from "../api/openapi.ts";
import { fieldErrorSchema } from "../briefs/validate.ts";
import { problemAnchor, problems, type ProblemCode } from "../api/problems.ts";
import { briefSchema } from "../briefs/schema.ts";
import { policies, type PolicyName } from "../limits/policies.ts";
import { conditionOf } from "../http/conditions.ts";
import { oauthConditions } from "../oauth/conditions.ts";
import { scopes } from "../tokens/metadata.ts";
import { apiBase, absolute, resourcePaths } from "../paths.ts";
import { caseStudyResourceSchema } from "../resources/case-studies.ts";
import { catalogIds, resourceCatalog } from "../resources/catalog.ts";
import { apiIndexSchema } from "../resources/index.ts";
import type { Site } from "../site/model.ts";
import { fieldDocs } from "../site/schema-fields.ts";
import { bookingReceiptSchema, bookingSchema, freeTimesQuerySchema, freeTimesSchema } from "../booking/schema.ts";
import { tableHtml, tableMarkdown, fieldTable, inlineHtml, type Block, type Cell, type Table } from "./block.ts";
import { link } from "../markdown/syntax.ts";

/** The generated tables of the REST and OAuth sections: each function returns rows from the code's own tables. */

export const resourcesTable = (site: Site): Table => ({
  columns: ["Resource", "URL", "What it holds"],
  rows: catalogIds.map((id) => {
    const url = absolute(site.baseUrl, resourcePaths[id]);
    return [{ code: id }, { href: url, label: url }, resourceCatalog[id].description];
  }),
});

export const oauthScopesTable = (): Table => ({
  columns: ["Scope", "What it allows"],
  rows: Object.entries(scopes).map(([name, meaning]) => [
    { code: name },
    name === "svc:read" ? `${meaning}. Always granted.` : `${meaning}. Granted when asked for.`,
  ]),
});

/** Every condition /oauth refuses for: its `error` (none for the consent page's own, which only a person sees), status and meaning. */
export const oauthErrorsTable = (): Table => ({
  columns: ["error", "HTTP", "Meaning"],
  rows: oauthConditions.map((name) => {
    const c = conditionOf(name);
    return [c.oauth ? { code: c.oauth } : "(error page)", String(c.status), `${c.title}: ${c.when}`];
  }),
});

/** Every problem code under /api; each row carries the anchor its problem documents' `type` names. */
export function problemsTable(): Table {
  const codes = Object.keys(problems) as ProblemCode[];
  return {
    columns: ["Code", "Status", "When", "What to do"],
    rows: codes.map((code) => [{ code }, String(problems[code].status), problems[code].condition, problems[code].resolution]),
    rowIds: codes.map(problemAnchor),
  };
}

export const quotasTable = (): Table => ({
  columns: ["Policy", "Quota", "Window", "Applies to", "Counted per"],
  rows: (Object.keys(policies) as PolicyName[]).map((name) => {
    const p = policies[name];
    return [{ code: name }, String(p.quota), `${p.windowSeconds} s`, p.appliesTo, p.partition];
  }),
});

/** Deprecated operations, or a sentence saying there are none. */
export const deprecationsTable = (deprecations: readonly Deprecation[]): Table | undefined =>
  deprecations.length === 0
    ? undefined
    : {
        columns: ["Operation", "Deprecated", "Sunset", "Successor"],
        rows: deprecations.map((d) => [
          { code: `${d.method} ${d.path}` },
          d.deprecatedAt.toISOString().slice(0, 10),
          d.sunsetAt.toISOString().slice(0, 10),
          d.successor ? { href: d.successor, label: d.successor } : "",
        ]),
      };

export const nothingDeprecated: Cell = ["Nothing under ", { code: apiBase }, " is deprecated."];

/** Every operation of the OpenAPI document, in its order. */
export function endpointsTable(site: Site, deprecations: readonly Deprecation[]): Table {
  type Operation = { summary?: string; responses?: Record<string, unknown>; deprecated?: boolean };
  const paths = openApiDocument(site, deprecations).paths as Record<string, Record<string, Operation>>;
  const rows = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => [
        { code: method.toUpperCase() },
        { code: path },
        `${op.summary ?? ""}${op.deprecated === true ? " (deprecated)" : ""}`,
        Object.keys(op.responses ?? {}).join(", "),
      ]),
  );
  return { columns: ["Method", "Path", "What it does", "Responses"], rows, rowHeader: 1 };
}

export const briefFieldsTable = (site: Site) =>
  fieldTable(fieldDocs(briefSchema(site.siteOffers.map((o) => o.id) as [string, ...string[]])));

export const fieldErrorTable = () => fieldTable(fieldDocs(fieldErrorSchema));

/** The intro call's query, booking and answers, from their schemas. */
export const freeTimesQueryTable = () => fieldTable(fieldDocs(freeTimesQuerySchema));
export const freeTimesTable = () => fieldTable(fieldDocs(freeTimesSchema));
export const bookingFieldsTable = () => fieldTable(fieldDocs(bookingSchema));
export const bookingReceiptTable = () => fieldTable(fieldDocs(bookingReceiptSchema));

/** What the single case study adds to an entry of the list. */
export const caseStudyExtraFieldsTable = () => fieldTable(fieldDocs(caseStudyResourceSchema).filter((f) => f.path === "story"));

/** The fields of the index and of every resource: one folded table each in the page, a line and a table in the twin. */
export function resourceFieldsBlock(site: Site): Block {
  const resources = [
    { id: "index", url: absolute(site.baseUrl, resourcePaths.index), fields: fieldDocs(apiIndexSchema) },
    ...catalogIds.map((id) => ({ id, url: absolute(site.baseUrl, resourcePaths[id]), fields: fieldDocs(resourceCatalog[id].schema) })),
  ];
  const count = (n: number) => `${n} fields`;
  return {
    markdown: resources
      .map((r) => `\`${r.id}\` · ${count(r.fields.length)} · ${link(r.url, r.url)}\n\n${tableMarkdown(fieldTable(r.fields))}`)
      .join("\n\n"),
    html: () =>
      resources
        .map(
          (r) =>
            `<details id="resource-${r.id}"><summary>${inlineHtml({ code: r.id })} · ${count(r.fields.length)} · <span class="muted">${inlineHtml(r.url)}</span></summary>${tableHtml(fieldTable(r.fields))}</details>`,
        )
        .join(""),
  };
}
