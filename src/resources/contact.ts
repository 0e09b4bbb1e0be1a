import { z } from "zod";

import type { Site } from "../site/model.ts";
import { pageLinks, pageLinksSchema } from "./common.ts";
import { absolute, agentBookingGuide, bookingsPath, freeTimesPath, pagePaths } from "../paths.ts";
import { bookingSkillIds, bookingToolNames } from "../booking/names.ts";

export const contactFormAnchor = "brief";

export const contactResourceSchema = z
  .object({
    email: z.email().describe("Where people write; a person reads it."),
    booking: z
      .object({
        url: z.url().describe("Booking page for an intro call."),
        label: z.string().describe("Link text."),
        duration_minutes: z.number().int().describe("Length of the call."),
        agents: z
          .object({
            summary: z.string().describe("What an agent can do, in words."),
            free_times_url: z.url().describe("GET: the free times (public)."),
            bookings_url: z.url().describe("POST: book a free time (a token with svc:brief)."),
            mcp_tools: z.array(z.string()).describe("The MCP server's tools for the same: free times, book, cancel."),
            a2a_skills: z.array(z.string()).describe("The A2A agent's skills for the same: free times, book, cancel."),
            documentation_url: z.url().describe("How, in the developer guide."),
          })
          .optional()
          .describe("Present where agents can book the call for the person they act for; the link stays for people."),
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
    booking: site.agentBooking ? { ...booking, agents: agentBooking(site) } : booking,
    response_time,
    hours,
    form: { url: `${absolute(site.baseUrl, pagePaths.contact)}#${contactFormAnchor}`, intro: form.intro },
    links: pageLinks(site.baseUrl, pagePaths.contact),
  };
}

function agentBooking(site: Site) {
  return {
    summary: `An agent acting for a person can list the free times and book this call for them, with the person confirming the time; Cal.com sends the invitation.`,
    free_times_url: absolute(site.baseUrl, freeTimesPath),
    bookings_url: absolute(site.baseUrl, bookingsPath),
    mcp_tools: Object.values(bookingToolNames),
    a2a_skills: Object.values(bookingSkillIds),
    documentation_url: agentBookingGuide(site),
  };
}
