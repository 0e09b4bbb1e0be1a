import { aiCatalog, servedAs } from "../discovery/ai-catalog.ts";
import type { Site } from "../site/model.ts";
import type { Table } from "./block.ts";

/** The AI catalog's entries, from the builder that writes it. */
export function aiCatalogTable(site: Site): Table {
  return {
    columns: ["Entry type", "Document", "Served as"],
    rows: aiCatalog(site).entries.map((e) => [{ code: e.type }, { href: e.url, label: e.url }, { code: servedAs[e.type]! }]),
  };
}
