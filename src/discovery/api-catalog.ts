import type { Site } from "../site/model.ts";
import { openApiPath, absolute, apiBase, pagePaths, apiCatalogPath, llmsPath, aiCatalogPath } from "../paths.ts";

/** RFC 9727's media type for the catalog, a linkset (RFC 9264) with the RFC 9727 profile. */
export const apiCatalogContentType = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
/** The AI Catalog's (src/discovery/ai-catalog.ts), kept here so the pages' links need not load what builds it. */
export const aiCatalogMediaType = "application/ai-catalog+json";
export const openApiMediaType = "application/vnd.oai.openapi+json;version=3.1";

type Link = { href: string; type?: string; title?: string };
type LinksetEntry = { anchor: string } & Record<string, Link[] | string>;

/** /.well-known/api-catalog: every API of the site with its machine-readable and human documentation. */
export function apiCatalog(site: Site, more: LinksetEntry[] = []): { linkset: LinksetEntry[] } {
  const url = (path: string) => absolute(site.baseUrl, path);
  return {
    linkset: [
      {
        anchor: url(apiBase),
        "service-desc": [{ href: url(openApiPath), type: openApiMediaType, title: "OpenAPI 3.1 description" }],
        "service-doc": [{ href: url(pagePaths.developers), type: "text/html", title: "Developer documentation" }],
      },
      ...more,
    ],
  };
}

/** The Link header value every HTML page carries (RFC 8288), and the same links for its <head>. */
export function pageLinks(markdownTwin: string): { rel: string; href: string; type?: string }[] {
  return [
    { rel: "alternate", href: markdownTwin, type: "text/markdown" },
    { rel: "api-catalog", href: apiCatalogPath, type: "application/linkset+json" },
    { rel: "ai-catalog", href: aiCatalogPath, type: aiCatalogMediaType },
    { rel: "service-desc", href: openApiPath, type: openApiMediaType },
    { rel: "service-doc", href: pagePaths.developers, type: "text/html" },
    { rel: "describedby", href: llmsPath, type: "text/plain" },
  ];
}

export const linkHeader = (links: { rel: string; href: string; type?: string }[]) =>
  links.map((l) => `<${l.href}>; rel="${l.rel}"${l.type ? `; type="${l.type}"` : ""}`).join(", ");
