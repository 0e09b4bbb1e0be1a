import { z } from "zod";

import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema } from "./common.ts";
import { absolute, pagePaths } from "../paths.ts";

export const contactFormAnchor = "brief";

export const contactResourceSchema = z
  .object({
    email: z.email().describe("Where people write; a person reads it."),
    booking: z
      .object({
        url: z.url().describe("Booking page for an intro call."),
        label: z.string().describe("Link text."),
        duration_minutes: z.number().int().describe("Length of the call."),
      })
      .describe("The intro call."),
    response_time: z.string().describe("How soon a person replies."),
    hours: z
      .object({
        time_zone: z.string().describe("IANA time zone."),
        summary: z.string().describe("Office hours in words."),
        days: z.array(z.string()).describe("Weekdays a person is there, lower case."),
        opens: z.string().describe("Opening time, HH:MM in time_zone."),
        closes: z.string().describe("Closing time, HH:MM in time_zone."),
      })
      .describe("When a person is there."),
    form: z
      .object({
        url: z.url().describe("The contact form, for people."),
        intro: z.string().describe("What to put in a brief."),
      })
      .describe("The contact form, where people send a project brief."),
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
