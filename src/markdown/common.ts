import type { Site, SitePage } from "../site/model.ts";

import { heading, text } from "./syntax.ts";
import { absolute } from "../paths.ts";

/** Content bodies are Markdown already; their site-relative links become absolute in a twin. */
export const absolutizeLinks = (markdown: string, baseUrl: string) =>
  markdown.replace(/\]\((\/[^)\s]*)\)/g, (_, path: string) => `](${absolute(baseUrl, path)})`);

/** The opening of every twin: the page heading and its introduction. */
export const opening = (site: Site, page: SitePage) => [heading(1, page.heading), absolutizeLinks(page.body, site.baseUrl)];

export const sampleNotice = (site: Site) =>
  site.company.sample_content
    ? `*${text(`Sample content: ${site.company.name} is a fictional studio used to demonstrate this site.`)}*`
    : undefined;
