import { z } from "zod";
import { line } from "./common.ts";

/**
 * Front matter of one section of the developer guide in content/developers; the file name is the section's anchor
 * (`oauth.md` is /developers#oauth) and the body is its prose in Markdown, with {{placeholders}} for what the code knows.
 */
export const guideSectionSchema = z.strictObject({
  title: line(60),
  /** Sections are shown in this order, in the page and its twin. */
  order: z.number().int(),
  /** `wide`: tables use the page's full width, prose stays in the reading column. `column`: everything in the column. */
  layout: z.enum(["wide", "column"]).default("wide"),
});

export type GuideSection = z.infer<typeof guideSectionSchema>;
