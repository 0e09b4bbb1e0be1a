import { z } from "zod";
import { absolute, pagePaths } from "../site/routes.ts";
import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema } from "./common.ts";

export const contactFormAnchor = "brief";

export const contactResourceSchema = z
  .object({
    email: z.email(),
    booking: z.object({ url: z.url(), label: z.string(), duration_minutes: z.number().int() }),
    response_time: z.string(),
    hours: z.object({ time_zone: z.string().describe("IANA time zone."), summary: z.string() }),
    form: z.object({
      url: z.url().describe("The contact form, for people."),
      intro: z.string(),
    }),
    links: pageLinksSchema,
  })
  .describe("How to reach the company: e-mail, the intro-call booking link and the contact form.");

export function contactResource(site: Site): z.infer<typeof contactResourceSchema> {
  const { email, booking, response_time, hours, form } = site.contact;
  return {
    email,
    booking,
    response_time,
    hours,
    form: { url: `${absolute(site.baseUrl, pagePaths.contact)}#${contactFormAnchor}`, intro: form.intro },
    links: pageLinks(site.baseUrl, pagePaths.contact),
  };
}
