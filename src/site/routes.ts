/** Where each page of the site lives. Paths are fixed by the code, not the content, so links never break silently. */
export const pagePaths = {
  home: "/",
  services: "/services",
  offers: "/offers",
  work: "/work",
  contact: "/contact",
  developers: "/developers",
} as const;

export type PageId = keyof typeof pagePaths;

/** The header's links, in order (the Astro header and the consent screen rendered by a function share them). */
export const mainNavigation = [
  ["Services", pagePaths.services],
  ["Work", pagePaths.work],
  ["Offers", pagePaths.offers],
  ["Contact", pagePaths.contact],
  ["Developers", pagePaths.developers],
] as const;

/** The studio mark's SVG path (an abstract kestrel wing), drawn inline in a 32x32 box. */
export const logoPath = "M3 22 16 4l4 8 9-2-8 9 3 9-8-5-13-1Z";

/** The page shown for unknown paths; it has a Markdown twin but is not indexable. */
export const notFoundPageId = "not-found";
export const notFoundPath = "/404";

export const caseStudyPath = (id: string) => `${pagePaths.work}/${id}`;

/** The Markdown twin of a page: `/` -> `/index.md`, `/work/x` -> `/work/x.md`. */
export const markdownPath = (path: string) => (path === "/" ? "/index.md" : `${path.replace(/\/+$/, "")}.md`);

/** The JSON read resources and where they are served. */
export const apiBase = "/api/v1";
export const resourcePaths = {
  index: apiBase,
  company: `${apiBase}/company`,
  offers: `${apiBase}/offers`,
  "case-studies": `${apiBase}/case-studies`,
  pages: `${apiBase}/pages`,
  contact: `${apiBase}/contact`,
} as const;

export type ResourceId = keyof typeof resourcePaths;

export const caseStudyResourcePath = (id: string) => `${resourcePaths["case-studies"]}/${id}`;

/** Joins a site path onto the base URL, keeping the base URL's own path if it has one. */
export const absolute = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, "")}${path}`;
