import { z } from "zod";
import { line } from "./common.ts";

/** Front matter of a page in content/pages; the body is the page's introduction in Markdown. */
export const pageSchema = z.strictObject({
  title: line(70),
  heading: line(100),
  description: line(160),
  updated: z.coerce.date({ error: "must be a date such as 2026-11-01" }),
});

export type Page = z.infer<typeof pageSchema>;
