import type { Site } from "../site/model.ts";
import { absolute, pagePaths, type PageId } from "../site/routes.ts";
import { opening } from "./common.ts";
import { bullets, document, link } from "./syntax.ts";

export function notFoundMarkdown(site: Site): string {
  return document(
    ...opening(site, site.pages["not-found"]),
    bullets((Object.keys(pagePaths) as PageId[]).map((id) => link(site.pages[id].title, absolute(site.baseUrl, pagePaths[id])))),
  );
}
