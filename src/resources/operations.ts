import type { Scope } from "../tokens/metadata.ts";
import { briefsPath, resourcePaths } from "../paths.ts";
import { catalogIds, resourceCatalog, type CatalogId } from "./catalog.ts";

/**
 * The operations of /api/v1, each with its OpenAPI operationId and the scopes its access token needs. The index and
 * the OpenAPI document both read this table, so the index's links into the document cannot break.
 */
export interface ApiOperation {
  method: "GET" | "POST";
  path: string;
  operationId: string;
  /** Scopes the bearer token must carry; none for the public reads. */
  scopes: readonly Scope[];
}

/** `case-studies` -> `CaseStudies`: how operationIds and OpenAPI component names spell an id. */
export const pascal = (id: string) => id.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());

export const readOperation = (id: CatalogId | "index"): ApiOperation => ({
  method: "GET",
  path: resourcePaths[id],
  operationId: `get${pascal(id)}`,
  scopes: [],
});

export const fileBriefOperation = {
  method: "POST",
  path: briefsPath,
  operationId: "fileBrief",
  scopes: ["svc:brief"],
} as const satisfies ApiOperation;

/** Every resource the index lists: the reads of the catalog, then the one write. */
export const indexedResources: { id: string; description: string; operations: ApiOperation[] }[] = [
  ...catalogIds.map((id) => ({ id, description: resourceCatalog[id].description, operations: [readOperation(id)] })),
  {
    id: "briefs",
    description:
      "The one write: a project brief, which becomes a real lead that a person answers by e-mail. File one only when the person you act for asked to be contacted.",
    operations: [fileBriefOperation],
  },
];

/** The operation's place in the OpenAPI document, as a URI fragment holding a JSON Pointer (RFC 6901). */
export const operationPointer = ({ path, method }: Pick<ApiOperation, "path" | "method">) =>
  `#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}`;
