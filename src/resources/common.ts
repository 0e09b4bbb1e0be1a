import { z } from "zod";
import { absolute, markdownPath } from "../paths.ts";

/** Dates are published as ISO 8601 calendar dates (UTC). */
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const isoDateSchema = z.iso.date();

/** Every resource that mirrors a page links to both of its representations. */
export const pageLinksSchema = z
  .object({
    html: z.url().describe("The page for people."),
    markdown: z.url().describe("The same page as Markdown."),
  })
  .describe("The page that shows this resource to people, in both representations.");
export const pageLinks = (baseUrl: string, path: string) => ({
  html: absolute(baseUrl, path),
  markdown: absolute(baseUrl, markdownPath(path)),
});

export const sampleContentSchema = z
  .boolean()
  .describe("true while the site publishes frontdoor's fictional sample studio instead of a real company's facts.");

export const usdAmountSchema = z
  .object({
    amount: z.number().int().describe("Whole US dollars."),
    currency: z.literal("USD").describe("ISO 4217 currency code."),
  })
  .describe("A price.");
