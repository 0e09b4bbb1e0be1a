import { z } from "zod";
import { line, prose, range, usd } from "./common.ts";

const common = {
  name: line(60),
  order: z.number().int().nonnegative(),
  summary: prose(300),
  includes: z.array(line(160)).min(1, "list what is included"),
};

/** A marketing-site size. Sites are never priced in the content: every project is priced on an intro call. */
export const siteOfferSchema = z.strictObject({
  kind: z.literal("site"),
  ...common,
  best_for: line(160),
  pages: range("pages"),
  timeline_weeks: range("weeks"),
});

/** The monthly care plan, the one offer with a published price. */
export const carePlanSchema = z.strictObject({
  kind: z.literal("care_plan"),
  ...common,
  price: usd.extend({ interval: z.literal("month") }),
  terms: line(200),
});

export const offerSchema = z.discriminatedUnion("kind", [siteOfferSchema, carePlanSchema], {
  error: 'kind must be "site" or "care_plan"',
});

export type SiteOffer = z.infer<typeof siteOfferSchema>;
export type CarePlan = z.infer<typeof carePlanSchema>;
export type Offer = z.infer<typeof offerSchema>;
