import { getCollection } from "astro:content";
import { bookingOffered } from "../booking/config.ts";
import { platformEnv } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { buildSite, type Site } from "./model.ts";

let site: Promise<Site> | undefined;

/** The site model for Astro pages and endpoints, built once per build from the content collections. */
export function loadSite(): Promise<Site> {
  site ??= (async () => {
    const [company, contact, offers, caseStudies, pages, developerGuide] = await Promise.all([
      getCollection("company"),
      getCollection("contact"),
      getCollection("offers"),
      getCollection("caseStudies"),
      getCollection("pages"),
      getCollection("developerGuide"),
    ]);
    // Booking is offered where CAL_EVENT_TYPE_ID is set; the functions, which alone hold the key, check they agree.
    return buildSite({ company, contact, offers, caseStudies, pages, developerGuide }, import.meta.env.SITE ?? "http://localhost:8888", {
      agentBooking: bookingOffered(settingsFrom(platformEnv)),
    });
  })();
  return site;
}
