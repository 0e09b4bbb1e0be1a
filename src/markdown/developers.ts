import type { Deprecation } from "../api/deprecations.ts";
import { renderGuide } from "../guide/render.ts";
import type { Site } from "../site/model.ts";
import { opening } from "./common.ts";
import { document, heading } from "./syntax.ts";

/** The developer page's twin: its introduction, then each section of content/developers/ with its generated parts as Markdown. */
export function developersMarkdown(site: Site, deprecations?: readonly Deprecation[]): string {
  return document(
    ...opening(site, site.pages.developers),
    ...renderGuide(site, deprecations).flatMap((section) => [heading(2, section.title), section.markdown]),
  );
}
