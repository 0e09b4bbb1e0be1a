import { z } from "zod";
import { guidePagePaths, type GuidePageId } from "../paths.ts";
import { line } from "./common.ts";

const guidePages = Object.keys(guidePagePaths) as [GuidePageId, ...GuidePageId[]];

/**
 * Front matter of one section of the developer guide in content/developers; the file name is the section's anchor
 * (`quota.md` is /developers/api#quota) and the body is its prose in Markdown, with {{placeholders}} for what the code knows.
 */
export const guideSectionSchema = z.strictObject({
  title: line(60),
  /** The guide's page the section is on: `index` (/developers) or a subject (`mcp` is /developers/mcp). */
  page: z.enum(guidePages, { error: `must be one of ${guidePages.join(", ")}` }),
  /** Sections are shown in this order on their page, in the page and its twin. */
  order: z.number().int(),
  /** `wide`: tables use the page's full width, prose stays in the reading column. `column`: everything in the column. */
  layout: z.enum(["wide", "column"]).default("wide"),
});

export type GuideSection = z.infer<typeof guideSectionSchema>;
