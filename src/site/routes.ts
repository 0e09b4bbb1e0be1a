import { pagePaths } from "../paths.ts";

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

/** The id of the page shown for unknown paths (its path is notFoundPath in src/paths.ts). */
export const notFoundPageId = "not-found";
