import type { Site } from "../site/model.ts";

import { opening } from "./common.ts";
import { bullets, document, link } from "./syntax.ts";
import { absolute, pagePaths, type PageId } from "../paths.ts";

export function notFoundMarkdown(site: Site): string {
  return document(
    ...opening(site, site.pages["not-found"]),
    bullets((Object.keys(pagePaths) as PageId[]).map((id) => link(site.pages[id].title, absolute(site.baseUrl, pagePaths[id])))),
  );
}
