import type { Site } from "../site/model.ts";

import { contactFormAnchor } from "../resources/contact.ts";
import { opening, sampleNotice } from "./common.ts";
import { bullets, document, heading, link, text } from "./syntax.ts";
import { absolute, agentBookingGuide, pagePaths } from "../paths.ts";

export function contactMarkdown(site: Site): string {
  const { contact } = site;
  return document(
    ...opening(site, site.pages.contact),
    bullets([
      `E-mail: ${link(contact.email, `mailto:${contact.email}`)}`,
      `Intro call: ${link(contact.booking.label, contact.booking.url)} (${contact.booking.duration_minutes} minutes)${
        site.agentBooking ? `; an agent acting for you can also book it for you (${link("how", agentBookingGuide(site))})` : ""
      }`,
      `Hours: ${text(contact.hours.summary)} (${text(contact.hours.time_zone)})`,
      text(contact.response_time),
    ]),
    heading(2, "Project brief"),
    text(contact.form.intro),
    `The form is at ${link(`${absolute(site.baseUrl, pagePaths.contact)}#${contactFormAnchor}`, `${absolute(site.baseUrl, pagePaths.contact)}#${contactFormAnchor}`)}. Programs and agents file the same brief through the API; see ${link("the developer page", absolute(site.baseUrl, pagePaths.developers))}.`,
    sampleNotice(site),
  );
}
