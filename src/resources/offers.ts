import { z } from "zod";
import { pagePaths } from "../site/routes.ts";
import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema, usdAmountSchema } from "./common.ts";

const rangeSchema = z.object({ min: z.number().int(), max: z.number().int() });

export const offersResourceSchema = z
  .object({
    currency: z.literal("USD").describe("Every price in this resource is in US dollars."),
    site_sizes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        summary: z.string(),
        best_for: z.string(),
        pages: rangeSchema.describe("Typical number of pages."),
        timeline_weeks: rangeSchema.describe("Typical time from kick-off to launch, in weeks."),
        includes: z.array(z.string()),
        pricing: z.object({
          model: z.literal("intro_call").describe("Sites are priced individually on an intro call; no list price is published."),
          description: z.string(),
          booking_url: z.url(),
        }),
      }),
    ),
    care_plan: z.object({
      id: z.string(),
      name: z.string(),
      summary: z.string(),
      price: usdAmountSchema.extend({ interval: z.literal("month") }),
      terms: z.string(),
      includes: z.array(z.string()),
    }),
    links: pageLinksSchema,
  })
  .describe("Marketing-site sizes, each priced on an intro call, and the monthly care plan in USD.");

export type OffersResource = z.infer<typeof offersResourceSchema>;

export function offersResource(site: Site): OffersResource {
  const booking = site.contact.booking;
  return {
    currency: "USD",
    site_sizes: site.siteOffers.map(({ id, name, summary, best_for, pages, timeline_weeks, includes }) => ({
      id,
      name,
      summary,
      best_for,
      pages,
      timeline_weeks,
      includes,
      pricing: {
        model: "intro_call",
        description: `Priced on a free ${booking.duration_minutes}-minute intro call.`,
        booking_url: booking.url,
      },
    })),
    care_plan: (({ id, name, summary, price, terms, includes }) => ({ id, name, summary, price, terms, includes }))(site.carePlan),
    links: pageLinks(site.baseUrl, pagePaths.offers),
  };
}
