import { z } from "zod";

import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema, usdAmountSchema } from "./common.ts";
import { freeIntroCall } from "../site/format.ts";
import { pagePaths } from "../paths.ts";

const rangeSchema = z.object({ min: z.number().int().describe("Lower bound."), max: z.number().int().describe("Upper bound.") });

export const offersResourceSchema = z
  .object({
    currency: z.literal("USD").describe("Every price in this resource is in US dollars."),
    site_sizes: z
      .array(
        z.object({
          id: z.string().describe("Stable id; briefs name a site size by it."),
          name: z.string().describe("Name of the size."),
          summary: z.string().describe("What this size is."),
          best_for: z.string().describe("The kind of client this size suits."),
          pages: rangeSchema.describe("Typical number of pages."),
          timeline_weeks: rangeSchema.describe("Typical time from kick-off to launch, in weeks."),
          includes: z.array(z.string()).describe("What the project includes."),
          pricing: z
            .object({
              model: z.literal("intro_call").describe("Sites are priced individually on an intro call; no list price is published."),
              description: z.string().describe("How the price is set, in words."),
              booking_url: z.url().describe("Where to book the intro call."),
            })
            .describe("How the site is priced."),
        }),
      )
      .describe("Marketing-site sizes, smallest first."),
    care_plan: z
      .object({
        id: z.string().describe("Stable id."),
        name: z.string().describe("Name of the plan."),
        summary: z.string().describe("What the plan does."),
        price: usdAmountSchema.extend({ interval: z.literal("month").describe("The price is per month.") }).describe("The monthly price."),
        terms: z.string().describe("Commitment and notice."),
        includes: z.array(z.string()).describe("What the plan includes each month."),
      })
      .describe("The monthly care plan, the one offer with a published price."),
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
        description: `Priced on ${freeIntroCall(booking.duration_minutes)}.`,
        booking_url: booking.url,
      },
    })),
    care_plan: (({ id, name, summary, price, terms, includes }) => ({ id, name, summary, price, terms, includes }))(site.carePlan),
    links: pageLinks(site.baseUrl, pagePaths.offers),
  };
}
